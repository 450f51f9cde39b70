//! The bytes a value travels in between ranks: a fixed little-endian layout, written here
//! because the harness sends only a few plain record types and no serialisation crate earns
//! its place for that. Every rank runs the same binary, so the layout needs no versioning;
//! a short or malformed message is an error all the same, never a panic.

/// A value that can be sent to another rank.
pub trait Wire: Sized {
    /// Appends the value's bytes to `out`.
    fn put(&self, out: &mut Vec<u8>);
    /// Reads a value from the front of `input` and advances it past the value.
    fn take(input: &mut &[u8]) -> Result<Self, String>;
}

/// The first `n` bytes of `input`, which then starts after them.
pub fn take_bytes<'a>(input: &mut &'a [u8], n: usize) -> Result<&'a [u8], String> {
    if input.len() < n {
        return Err(format!(
            "a message from another rank ends early ({} bytes left, {n} needed)",
            input.len()
        ));
    }
    let (head, tail) = input.split_at(n);
    *input = tail;
    Ok(head)
}

macro_rules! wire_number {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn take(input: &mut &[u8]) -> Result<Self, String> {
                let bytes = take_bytes(input, size_of::<$t>())?;
                let mut array = [0u8; size_of::<$t>()];
                array.copy_from_slice(bytes);
                Ok(<$t>::from_le_bytes(array))
            }
        }
    )*};
}
wire_number!(u8, u16, u32, u64, i32, i64, f32, f64);

impl Wire for usize {
    fn put(&self, out: &mut Vec<u8>) {
        (*self as u64).put(out);
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        usize::try_from(u64::take(input)?)
            .map_err(|_| "a count from another rank is too large".into())
    }
}

impl Wire for bool {
    fn put(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        match u8::take(input)? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(format!("a flag from another rank reads {other}")),
        }
    }
}

impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        out.extend_from_slice(self.as_bytes());
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        let len = usize::take(input)?;
        let bytes = take_bytes(input, len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| "text from another rank is not UTF-8".into())
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        for item in self {
            item.put(out);
        }
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        let len = usize::take(input)?;
        // Each item takes at least a byte: a bad count cannot ask for a huge allocation.
        if len > input.len() {
            return Err(format!("a list from another rank claims {len} items"));
        }
        (0..len).map(|_| T::take(input)).collect()
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        self.is_some().put(out);
        if let Some(value) = self {
            value.put(out);
        }
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        Ok(if bool::take(input)? {
            Some(T::take(input)?)
        } else {
            None
        })
    }
}

impl<T: Wire + Copy + Default, const N: usize> Wire for [T; N] {
    fn put(&self, out: &mut Vec<u8>) {
        for item in self {
            item.put(out);
        }
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        let mut array = [T::default(); N];
        for item in &mut array {
            *item = T::take(input)?;
        }
        Ok(array)
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, out: &mut Vec<u8>) {
        self.0.put(out);
        self.1.put(out);
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        Ok((A::take(input)?, B::take(input)?))
    }
}

/// `value`'s bytes.
pub fn to_bytes<T: Wire>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.put(&mut out);
    out
}

/// The value `bytes` hold, which must be all of them.
pub fn from_bytes<T: Wire>(bytes: &[u8]) -> Result<T, String> {
    let mut input = bytes;
    let value = T::take(&mut input)?;
    if !input.is_empty() {
        return Err(format!(
            "a message from another rank has {} bytes too many",
            input.len()
        ));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_as_they_went() {
        let value: (Vec<(u64, f64)>, Option<String>) = (
            vec![(7, -0.25), (u64::MAX, f64::MIN_POSITIVE)],
            Some("rank 3: ünïcode".into()),
        );
        assert_eq!(
            from_bytes::<(Vec<(u64, f64)>, Option<String>)>(&to_bytes(&value)),
            Ok(value)
        );
        let array = [1.5f32, 2.0, -3.0];
        assert_eq!(from_bytes::<[f32; 3]>(&to_bytes(&array)), Ok(array));
        assert_eq!(from_bytes::<bool>(&[1]), Ok(true));
    }

    #[test]
    fn short_long_and_malformed_messages_are_errors() {
        let bytes = to_bytes(&vec![1u32, 2, 3]);
        assert!(from_bytes::<Vec<u32>>(&bytes[..bytes.len() - 1]).is_err());
        let mut long = bytes.clone();
        long.push(0);
        assert!(from_bytes::<Vec<u32>>(&long).is_err());
        assert!(from_bytes::<bool>(&[2]).is_err());
        assert!(from_bytes::<String>(&to_bytes(&(2u64, 0xffffu16))).is_err());
        // A huge count in a short message is refused before anything is allocated.
        assert!(from_bytes::<Vec<u8>>(&to_bytes(&u64::MAX)).is_err());
        assert!(from_bytes::<Vec<u8>>(&to_bytes(&(1u64 << 40))).is_err());
    }
}
