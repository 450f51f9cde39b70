//! An open-addressing table of information sets in caller storage: one `u64` key and a fixed
//! row of `f64` values per slot. The solver and the best response each keep their own table.
use super::CfrError;

/// Marks an empty slot. A stored key is never 0 (see [`InfoTable::slot_key`]).
const EMPTY: u64 = 0;

/// Caller storage viewed as `capacity` slots of `width` values each.
pub struct InfoTable<'a> {
    keys: &'a mut [u64],
    values: &'a mut [f64],
    width: usize,
    used: usize,
}

impl<'a> InfoTable<'a> {
    /// A table over `keys` (one per slot; their number is the capacity) and `values`
    /// (`width` per slot). Clears both. Errors when `values` is too short or `width` is 0.
    pub fn new(keys: &'a mut [u64], values: &'a mut [f64], width: usize) -> Result<Self, CfrError> {
        let needed = keys.len().checked_mul(width);
        if width == 0 || keys.is_empty() || needed.is_none_or(|n| values.len() < n) {
            return Err(CfrError::Storage {
                keys: keys.len(),
                values: values.len(),
                needed_values: needed.unwrap_or(usize::MAX),
            });
        }
        keys.fill(EMPTY);
        values.fill(0.0);
        Ok(InfoTable {
            keys,
            values,
            width,
            used: 0,
        })
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.keys.fill(EMPTY);
        self.values.fill(0.0);
        self.used = 0;
    }

    /// Slots in the table.
    pub fn capacity(&self) -> usize {
        self.keys.len()
    }

    /// Occupied slots.
    pub fn used(&self) -> usize {
        self.used
    }

    /// The stored key of `player`'s information set `info_key`: well mixed (buckets come from
    /// its high bits), the player in the low bit so that the two players' sets never share a
    /// slot, and never [`EMPTY`].
    pub fn slot_key(info_key: u64, player: u8) -> u64 {
        let mixed = crate::rng::splitmix64(info_key) & !1 | u64::from(player & 1);
        if mixed == EMPTY { 2 } else { mixed }
    }

    /// The player whose set a stored key is.
    pub fn key_player(key: u64) -> u8 {
        (key & 1) as u8
    }

    /// The first slot to probe for `key`: its high bits scaled to the capacity.
    fn home(&self, key: u64) -> usize {
        ((u128::from(key) * self.keys.len() as u128) >> 64) as usize
    }

    /// The slot of `key`, if present.
    pub fn find(&self, key: u64) -> Option<usize> {
        let n = self.keys.len();
        let mut slot = self.home(key);
        for _ in 0..n {
            match self.keys[slot] {
                k if k == key => return Some(slot),
                EMPTY => return None,
                _ => slot = if slot + 1 == n { 0 } else { slot + 1 },
            }
        }
        None
    }

    /// The slot of `key`, claimed (with zero values) if absent; an error when the table is full.
    pub fn find_or_insert(&mut self, key: u64) -> Result<usize, CfrError> {
        let n = self.keys.len();
        let mut slot = self.home(key);
        for _ in 0..n {
            match self.keys[slot] {
                k if k == key => return Ok(slot),
                EMPTY => {
                    self.keys[slot] = key;
                    self.used += 1;
                    return Ok(slot);
                }
                _ => slot = if slot + 1 == n { 0 } else { slot + 1 },
            }
        }
        Err(CfrError::TableFull { capacity: n })
    }

    /// The stored key of `slot` ([`EMPTY`] when free).
    pub fn key(&self, slot: usize) -> u64 {
        self.keys.get(slot).copied().unwrap_or(EMPTY)
    }

    /// Whether `slot` holds an information set.
    pub fn occupied(&self, slot: usize) -> bool {
        self.key(slot) != EMPTY
    }

    /// The values of `slot`.
    pub fn row(&self, slot: usize) -> &[f64] {
        let start = slot * self.width;
        &self.values[start..start + self.width]
    }

    /// The values of `slot`, to change.
    pub fn row_mut(&mut self, slot: usize) -> &mut [f64] {
        let start = slot * self.width;
        &mut self.values[start..start + self.width]
    }

    /// The keys and values as they are, for comparing two tables bit for bit.
    pub fn raw(&self) -> (&[u64], &[f64]) {
        (self.keys, &self.values[..self.keys.len() * self.width])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_again_and_a_full_table_says_so() {
        let mut keys = [0u64; 4];
        let mut values = [0.0f64; 8];
        let mut table = InfoTable::new(&mut keys, &mut values, 2).unwrap();
        let ids: [u64; 4] = core::array::from_fn(|i| InfoTable::slot_key(i as u64, 0));
        let slots: [usize; 4] = core::array::from_fn(|i| table.find_or_insert(ids[i]).unwrap());
        table.row_mut(slots[2])[1] = 5.0;
        assert_eq!(table.used(), 4);
        assert_eq!(table.find(ids[2]), Some(slots[2]));
        assert_eq!(table.row(slots[2]), &[0.0, 5.0]);
        let other = InfoTable::slot_key(9, 1);
        assert_eq!(table.find(other), None);
        assert_eq!(
            table.find_or_insert(other),
            Err(CfrError::TableFull { capacity: 4 })
        );
    }

    #[test]
    fn short_storage_is_an_error() {
        let mut keys = [0u64; 4];
        let mut values = [0.0f64; 7];
        assert!(matches!(
            InfoTable::new(&mut keys, &mut values, 2),
            Err(CfrError::Storage {
                needed_values: 8,
                ..
            })
        ));
    }

    #[test]
    fn players_never_share_a_key() {
        for info in 0..100u64 {
            assert_ne!(InfoTable::slot_key(info, 0), InfoTable::slot_key(info, 1));
            assert_ne!(InfoTable::slot_key(info, 0), EMPTY);
        }
    }
}
