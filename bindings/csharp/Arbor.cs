// Arbor.cs: C# bindings of arbor's C ABI 1.0 (P/Invoke), for .NET, Mono and Unity.
//
// Copy this one file into a project; put libarbor.so (Linux, Android), arbor.dll (Windows)
// or libarbor.dylib (macOS) where the runtime finds native libraries (docs/bindings.md).
// Every call goes through [DllImport("arbor")]; no `unsafe` code is needed for the calls
// below.
//
// How the C conventions map (see the comment at the top of arbor.h):
// - Statuses: `Status` (same numbers as arbor_status). The raw calls in `Native` return
//   it; the helpers throw `ArborException` (or `ArborParseException`) for anything but Ok.
// - Text in: `byte[]` of UTF-8 plus its length, never NUL-terminated. Helpers take
//   `string` and encode it.
// - Text out: a `byte[]` buffer, its length, and `out UIntPtr` for the length the text
//   needs. Helpers ask for the length first (null buffer, length 0), then fill a buffer of
//   that size, then decode it. Nothing ever returns a `string` or a `char*`: the marshaller
//   would free a returned string with the runtime's allocator (Mono and .NET call free or
//   CoTaskMemFree on it), which is wrong for memory arbor owns — and arbor allocates
//   nothing, so ABI 1.0 has no string returns at all.
// - Structs: [StructLayout(LayoutKind.Sequential)] mirrors with fixed-width fields; their
//   sizes are checked against the ARBOR_..._BYTES values when the bindings are first used
//   (`Library.CheckLayout`), together with the library's ABI version.
// - Caller buffers: `NativeBuffer` (aligned unmanaged memory, freed by Dispose).
//
// Coverage: the parts final at 1.0 (statuses, versions, build information, hands, cards).
// Breakthrough, Match-3 and the search buffers are marked "EXTENSION POINT" below.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Arbor
{
    /// <summary>arbor_status: the result of every fallible call. Numbers never change.</summary>
    public enum Status : uint
    {
        Ok = 0,
        NullPointer = 1,
        BufferTooSmall = 2,
        InvalidLength = 3,
        InvalidCard = 4,
        DuplicateCard = 5,
        ParseError = 6,
        InvalidArgument = 7,
        IllegalMove = 8,
        CapacityExhausted = 9,
        InvalidUtf8 = 10,
        GameOver = 11,
        WrongVersion = 12,
        NotInitialised = 13,
        Misaligned = 14,
        Unsupported = 15,
    }

    /// <summary>arbor_hand_category's result.</summary>
    public enum HandCategory : byte
    {
        HighCard = 0,
        OnePair = 1,
        TwoPair = 2,
        ThreeOfAKind = 3,
        Straight = 4,
        Flush = 5,
        FullHouse = 6,
        FourOfAKind = 7,
        StraightFlush = 8,
        Invalid = 255,
    }

    /// <summary>The header's constants (arbor.h) this file was written against.</summary>
    public static class Constants
    {
        public const uint VersionMajor = 1;
        public const uint VersionMinor = 0;
        public const uint VersionPatch = 0;
        public const uint AbiVersion = 1;
        public const int StatusTextMax = 48;
        public const int BuildInfoMax = 256;
        public const int ParseMessageMax = 120;
        public const int ParseErrorBytes = 136;
    }

    /// <summary>arbor_parse_error: where and why a text could not be parsed.</summary>
    /// <remarks>Fixed-width fields in C order; the message is an inline array of
    /// <see cref="Constants.ParseMessageMax"/> bytes, which the marshaller copies (136 bytes,
    /// on the error path only).</remarks>
    [StructLayout(LayoutKind.Sequential)]
    public struct ParseError
    {
        /// <summary>1-based line of the problem.</summary>
        public uint Line;
        /// <summary>1-based byte column, or 0 when the problem concerns the whole line.</summary>
        public uint Column;
        /// <summary>Bytes of Message before its NUL.</summary>
        public uint MessageLen;
        /// <summary>Written as zero.</summary>
        public uint Reserved;
        [MarshalAs(UnmanagedType.ByValArray, SizeConst = Constants.ParseMessageMax)]
        public byte[] Message;

        /// <summary>The message as a string (UTF-8).</summary>
        public string MessageText
        {
            get
            {
                if (Message == null) return "";
                int len = (int)Math.Min(MessageLen, (uint)Message.Length);
                return Encoding.UTF8.GetString(Message, 0, len);
            }
        }
    }

    /// <summary>A call returned a status other than Ok.</summary>
    public class ArborException : Exception
    {
        public Status Status { get; private set; }
        /// <summary>The C function that failed, such as "arbor_hand_rank".</summary>
        public string Function { get; private set; }

        public ArborException(Status status, string function)
            : this(status, function, Library.StatusMessage(status)) { }

        protected ArborException(Status status, string function, string message)
            : base(function + ": " + message)
        {
            Status = status;
            Function = function;
        }
    }

    /// <summary>Status.ParseError with the line, column and message arbor reported.</summary>
    public sealed class ArborParseException : ArborException
    {
        public uint Line { get; private set; }
        public uint Column { get; private set; }
        /// <summary>arbor's own message, such as "a board has 2 to 8 columns".</summary>
        public string Detail { get; private set; }

        public ArborParseException(string function, uint line, uint column, string detail)
            : base(Status.ParseError, function, line + ":" + column + ": " + detail)
        {
            Line = line;
            Column = column;
            Detail = detail;
        }
    }

    /// <summary>The raw C functions, one for one. Check every returned Status.</summary>
    public static class Native
    {
        // "arbor": libarbor.so, arbor.dll, libarbor.dylib. Where the library is linked into
        // the executable (Unity IL2CPP on iOS, with libarbor.a), "__Internal".
        // Cdecl: arbor uses the C calling convention, not the default (stdcall) of 32-bit
        // Windows.
#if UNITY_IOS && !UNITY_EDITOR
        const string Lib = "__Internal";
#else
        const string Lib = "arbor";
#endif

        // Statuses, versions, build information.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_status_format(uint status, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern uint arbor_version();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern uint arbor_abi_version();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_build_info(byte[] buf, UIntPtr len, out UIntPtr outLen);

        // Hands and cards.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_hand_rank(byte[] cards, UIntPtr len, out ushort outRank);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_hand_rank7_batch(byte[] cards, UIntPtr count, [Out] ushort[] outRanks);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern byte arbor_hand_category(ushort rank);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_card_parse(byte[] text, UIntPtr len, out byte outCard, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_card_format(byte card, byte[] buf, UIntPtr len, out UIntPtr outLen);

        // EXTENSION POINT: Breakthrough (branch abi-breakthrough): arbor_breakthrough_init,
        // _parse (byte[] text, UIntPtr len, out Breakthrough state, out ParseError error),
        // _format, _legal_moves ([Out] ushort[] of BreakthroughMaxMoves), _play, _status,
        // _hash, _move_parse, _move_format, the solver (_bytes, _init, _solve with a
        // NativeBuffer's IntPtr) and later the MCTS handle.
        //
        // EXTENSION POINT: Match-3 and playtests (branch abi-match3): level/persona _parse,
        // _format, game start/play/legal moves/metrics, agent moves, playtest report.
        //
        // EXTENSION POINT: anytime search (src/ffi/search.rs): _bytes, _init on a
        // NativeBuffer, search/step calls, stats struct, _cancel (callable from any thread).
    }

    /// <summary>Text in and out, the same way for every call.</summary>
    public static class Text
    {
        /// <summary>A text-out call: (buffer, its length, out the length needed).</summary>
        public delegate Status FormatCall(byte[] buf, UIntPtr len, out UIntPtr outLen);

        /// <summary>Asks for the length, fills a buffer of that size, decodes it.</summary>
        public static string Format(string function, FormatCall call)
        {
            UIntPtr needed;
            Status status = call(null, UIntPtr.Zero, out needed);
            if (status != Status.Ok && status != Status.BufferTooSmall)
                throw new ArborException(status, function);
            byte[] buf = new byte[(int)needed.ToUInt64() + 1];
            Check(call(buf, (UIntPtr)buf.Length, out needed), function);
            return Encoding.UTF8.GetString(buf, 0, (int)needed.ToUInt64());
        }

        /// <summary>UTF-8 bytes of a string, for text in.</summary>
        public static byte[] Utf8(string text)
        {
            return Encoding.UTF8.GetBytes(text ?? "");
        }

        /// <summary>Throws ArborException for anything but Ok.</summary>
        public static void Check(Status status, string function)
        {
            if (status != Status.Ok) throw new ArborException(status, function);
        }

        /// <summary>Throws ArborParseException for ParseError, ArborException otherwise.</summary>
        public static void CheckParse(Status status, ParseError error, string function)
        {
            if (status == Status.ParseError)
                throw new ArborParseException(function, error.Line, error.Column, error.MessageText);
            Check(status, function);
        }
    }

    /// <summary>The library: versions, build information, status texts, layout checks.</summary>
    public static class Library
    {
        static bool checkedLayout;

        /// <summary>The linked library's version (major, minor, patch).</summary>
        public static Version Version
        {
            get
            {
                uint n = Native.arbor_version();
                return new Version((int)(n / 10000), (int)(n / 100 % 100), (int)(n % 100));
            }
        }

        /// <summary>The linked library's ABI version (must equal Constants.AbiVersion).</summary>
        public static uint AbiVersion { get { return Native.arbor_abi_version(); } }

        /// <summary>One line about the linked library, for bug reports.</summary>
        public static string BuildInfo()
        {
            return Text.Format("arbor_build_info", Native.arbor_build_info);
        }

        /// <summary>The English text of a status ("ok", …, "unknown status").</summary>
        public static string StatusMessage(Status status)
        {
            byte[] buf = new byte[Constants.StatusTextMax];
            UIntPtr len;
            if (Native.arbor_status_format((uint)status, buf, (UIntPtr)buf.Length, out len) != Status.Ok)
                return "unknown status";
            return Encoding.UTF8.GetString(buf, 0, (int)len.ToUInt64());
        }

        /// <summary>Checks, once, that the library has this file's ABI version and that every
        /// struct mirror has its C size; throws InvalidOperationException if not. The helpers
        /// call it; call it at start-up to fail early.</summary>
        public static void CheckLayout()
        {
            if (checkedLayout) return;
            uint abi = Native.arbor_abi_version();
            if (abi != Constants.AbiVersion)
                throw new InvalidOperationException("libarbor has ABI " + abi + ", Arbor.cs needs " + Constants.AbiVersion);
            CheckSize(typeof(ParseError), Constants.ParseErrorBytes);
            // EXTENSION POINT: CheckSize for each struct mirror added with its area.
            checkedLayout = true;
        }

        static void CheckSize(Type type, int bytes)
        {
            int size = Marshal.SizeOf(type);
            if (size != bytes)
                throw new InvalidOperationException(type.Name + " is " + size + " bytes, arbor's is " + bytes);
        }
    }

    /// <summary>Cards (byte rank * 4 + suit; ranks 2..A are 0..12, suits c d h s 0..3) and
    /// poker hands.</summary>
    public static class Cards
    {
        /// <summary>Rank 1 (worst) ..= 7462 (royal flush) of the best five of 5 to 7 cards.</summary>
        public static ushort HandRank(params byte[] cards)
        {
            Library.CheckLayout();
            ushort rank;
            Text.Check(Native.arbor_hand_rank(cards, (UIntPtr)(cards == null ? 0 : cards.Length), out rank), "arbor_hand_rank");
            return rank;
        }

        /// <summary>Ranks of seven-card hands (cards.Length a multiple of 7).</summary>
        public static ushort[] HandRank7Batch(byte[] cards)
        {
            Library.CheckLayout();
            if (cards == null || cards.Length % 7 != 0)
                throw new ArborException(Status.InvalidLength, "arbor_hand_rank7_batch");
            ushort[] ranks = new ushort[cards.Length / 7];
            Text.Check(Native.arbor_hand_rank7_batch(cards, (UIntPtr)ranks.Length, ranks), "arbor_hand_rank7_batch");
            return ranks;
        }

        public static HandCategory Category(ushort rank)
        {
            return (HandCategory)Native.arbor_hand_category(rank);
        }

        /// <summary>Parses "As", "Td", "2c" (any letter case). Throws ArborParseException.</summary>
        public static byte Parse(string text)
        {
            Library.CheckLayout();
            byte[] bytes = Text.Utf8(text);
            byte card;
            ParseError error;
            Status status = Native.arbor_card_parse(bytes, (UIntPtr)bytes.Length, out card, out error);
            Text.CheckParse(status, error, "arbor_card_parse");
            return card;
        }

        /// <summary>The text of a card byte ("As"). Throws for a byte above 51.</summary>
        public static string Format(byte card)
        {
            Library.CheckLayout();
            return Text.Format("arbor_card_format", delegate (byte[] buf, UIntPtr len, out UIntPtr outLen) {
                return Native.arbor_card_format(card, buf, len, out outLen);
            });
        }
    }

    /// <summary>Unmanaged memory for an arbor caller buffer (search trees, solver tables,
    /// handles): `bytes` bytes aligned to `align` (an area's ARBOR_..._ALIGN), freed by
    /// Dispose or the finalizer. Pass <see cref="Pointer"/> as the C `void *buf`.</summary>
    public sealed class NativeBuffer : SafeHandle
    {
        readonly IntPtr aligned;

        public NativeBuffer(long bytes, int align) : base(IntPtr.Zero, true)
        {
            if (bytes < 0 || align <= 0 || (align & (align - 1)) != 0)
                throw new ArborException(Status.InvalidArgument, "NativeBuffer");
            Size = bytes;
            Alignment = align;
            IntPtr raw = Marshal.AllocHGlobal(new IntPtr(bytes + align - 1));
            SetHandle(raw);
            long address = raw.ToInt64();
            aligned = new IntPtr((address + align - 1) & ~((long)align - 1));
        }

        /// <summary>The aligned start, valid until Dispose.</summary>
        public IntPtr Pointer { get { return aligned; } }
        public long Size { get; private set; }
        public int Alignment { get; private set; }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Marshal.FreeHGlobal(handle);
            return true;
        }
    }

    // EXTENSION POINT: struct mirrors and helpers per area, each mirror added to
    // Library.CheckLayout with its ARBOR_..._BYTES value:
    //   Breakthrough (arbor_breakthrough: magic, version, …) and class BreakthroughGame;
    //   Match3Level / Match3Game / Match3Persona / playtest report rows (flattened arrays);
    //   the search statistics struct of src/ffi/search.rs and class Search over NativeBuffer.
}
