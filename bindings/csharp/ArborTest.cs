// Test of bindings/csharp/Arbor.cs against libarbor.so:
//   mcs -out:ArborTest.exe bindings/csharp/Arbor.cs bindings/csharp/ArborTest.cs
//   LD_LIBRARY_PATH=PREFIX/lib mono ArborTest.exe
using System;
using System.Runtime.InteropServices;
using Arbor;

static class ArborTest
{
    static int passed, failed;

    static void Check(bool condition, string what)
    {
        if (condition) { passed++; return; }
        failed++;
        Console.Error.WriteLine("check failed: " + what);
    }

    static void Throws(Status expected, Action body, string what)
    {
        try
        {
            body();
            Check(false, what + " (no exception)");
        }
        catch (ArborException e)
        {
            Check(e.Status == expected, what + " (got " + e.Status + ")");
        }
    }

    // rank * 4 + suit; suits c d h s.
    static byte C(int rank, int suit) { return (byte)(rank * 4 + suit); }

    static int Main()
    {
        // Layout and ABI: the struct mirrors have their C sizes.
        Library.CheckLayout();
        Check(Marshal.SizeOf(typeof(ParseError)) == Constants.ParseErrorBytes, "ParseError is 136 bytes");

        // Versions and build information.
        Version v = Library.Version;
        Check(v.Major == 1 && v.Minor == 0 && v.Build == 0, "version 1.0.0, got " + v);
        Check(Library.AbiVersion == Constants.AbiVersion, "ABI version");
        string info = Library.BuildInfo();
        Check(info.StartsWith("arbor 1.0.0 abi 1 target "), "build info: " + info);
        Check(info.Contains(" features ") && info.Contains(" commit "), "build info fields: " + info);

        // Statuses: text, exceptions.
        Check(Library.StatusMessage(Status.Ok) == "ok", "status text ok");
        Check(Library.StatusMessage((Status)999) == "unknown status", "unknown status text");
        string illegal = Library.StatusMessage(Status.IllegalMove);
        Check(illegal.Length > 0 && illegal != "unknown status", "illegal move text: " + illegal);
        for (uint s = 1; s <= 15; s++)
            Check(Library.StatusMessage((Status)s) != "unknown status", "text of status " + s);
        // Text out with the size query, by hand.
        UIntPtr needed;
        Check(Native.arbor_status_format(0, null, UIntPtr.Zero, out needed) == Status.BufferTooSmall
              && needed.ToUInt64() == 2, "size query of \"ok\"");
        byte[] small = new byte[2];
        Check(Native.arbor_status_format(0, small, (UIntPtr)small.Length, out needed) == Status.BufferTooSmall
              && small[0] == 0, "short buffer: nothing written");
        Check(Native.arbor_build_info(null, (UIntPtr)5, out needed) == Status.NullPointer, "NULL buffer with length");

        // Hands: known ranks and errors.
        ushort royal = Cards.HandRank(C(12, 3), C(11, 3), C(10, 3), C(9, 3), C(8, 3));
        Check(royal == 7462, "royal flush 7462, got " + royal);
        Check(Cards.Category(royal) == HandCategory.StraightFlush, "royal flush category");
        Check(Cards.HandRank(C(5, 0), C(3, 1), C(2, 2), C(1, 3), C(0, 0)) == 1, "7-5-4-3-2 is rank 1");
        ushort quads = Cards.HandRank(C(12, 0), C(12, 1), C(12, 2), C(12, 3), C(11, 0), C(0, 1), C(1, 2));
        Check(Cards.Category(quads) == HandCategory.FourOfAKind, "four aces");
        Check(Cards.Category(0) == HandCategory.Invalid, "rank 0 invalid");
        Throws(Status.InvalidLength, () => Cards.HandRank(C(0, 0), C(1, 0), C(2, 0), C(3, 0)), "four cards");
        Throws(Status.DuplicateCard, () => Cards.HandRank(C(0, 0), C(0, 0), C(2, 0), C(3, 0), C(4, 1)), "duplicate");
        Throws(Status.InvalidCard, () => Cards.HandRank(52, C(0, 0), C(2, 0), C(3, 0), C(4, 1)), "card 52");
        try
        {
            Cards.HandRank(52, 1, 2, 3, 4);
        }
        catch (ArborException e)
        {
            Check(e.Function == "arbor_hand_rank" && e.Message == "arbor_hand_rank: " + Library.StatusMessage(Status.InvalidCard),
                  "exception message: " + e.Message);
        }
        ushort[] ranks = Cards.HandRank7Batch(new byte[] {
            C(12, 3), C(11, 3), C(10, 3), C(9, 3), C(8, 3), C(0, 0), C(1, 1),
            C(12, 0), C(12, 1), C(12, 2), C(12, 3), C(11, 0), C(0, 1), C(1, 2) });
        Check(ranks.Length == 2 && ranks[0] == 7462 && ranks[1] == quads, "batch ranks");
        Throws(Status.InvalidLength, () => Cards.HandRank7Batch(new byte[8]), "batch of 8 bytes");

        // Cards: text both ways.
        Check(Cards.Format(C(12, 3)) == "As", "format As");
        Check(Cards.Format(0) == "2c", "format 2c");
        Throws(Status.InvalidCard, () => Cards.Format(52), "format 52");
        Check(Cards.Parse("As") == C(12, 3), "parse As");
        Check(Cards.Parse("td") == C(8, 1), "parse td");
        try
        {
            Cards.Parse("Ax");
            Check(false, "parse Ax should fail");
        }
        catch (ArborParseException e)
        {
            Check(e.Status == Status.ParseError, "parse error status");
            Check(e.Line == 1 && e.Column == 2, "parse error at 1:2 (the suit), got " + e.Line + ":" + e.Column);
            Check(e.Detail.Length > 0, "parse error message: " + e.Detail);
        }

        // Caller buffers.
        using (NativeBuffer buffer = new NativeBuffer(1000, 64))
        {
            Check(buffer.Pointer.ToInt64() % 64 == 0 && buffer.Size == 1000, "aligned buffer");
            Marshal.WriteByte(buffer.Pointer, 999, 0xAB);
        }
        Throws(Status.InvalidArgument, () => new NativeBuffer(16, 3), "alignment 3");

        Console.WriteLine("ArborTest (C#): " + passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
