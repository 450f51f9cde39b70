// Test of bindings/csharp/Arbor.cs against libarbor.so:
//   mcs -out:ArborTest.exe bindings/csharp/Arbor.cs bindings/csharp/ArborTest.cs
//   LD_LIBRARY_PATH=PREFIX/lib mono ArborTest.exe
using System;
using System.Diagnostics;
using System.Threading;
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

    // ---- Breakthrough --------------------------------------------------------------------

    // A parse that must fail at line 1, `column`, with `message`.
    static void ParseFails(Action body, uint column, string message, string what)
    {
        try
        {
            body();
            Check(false, what + " (no exception)");
        }
        catch (ArborParseException e)
        {
            Check(e.Status == Status.ParseError && e.Line == 1 && e.Column == column && e.Detail == message,
                  what + ": got " + e.Line + ":" + e.Column + " " + e.Detail);
        }
    }

    static bool LegalIn(Breakthrough position, uint move)
    {
        return move <= 0xFFFF && Array.IndexOf(position.LegalMoves(), (ushort)move) >= 0;
    }

    // Wall-clock bounds, on a machine shared with other work: each timing is the best of up
    // to Attempts tries, stopping at the first within its bound.
    const long CancelBoundUs = 5000;
    const long OverrunBoundUs = 1000;
    const int Attempts = 5;

    static long NowUs() { return Stopwatch.GetTimestamp() * 1000000L / Stopwatch.Frequency; }

    // The deterministic caller's clock: 100 us a reading. A static method (IL2CPP's rule),
    // kept alive in a static field (the GC does not see arbor's function pointer).
    static ulong fakeNow;
    static ulong FakeClock(IntPtr ctx) { fakeNow += 100; return fakeNow; }
    static readonly ClockFn fakeClock = FakeClock;
    static ulong SteadyClock(IntPtr ctx) { return (ulong)NowUs(); }
    static readonly ClockFn steadyClock = SteadyClock;

    static void TestBreakthroughPositions()
    {
        Breakthrough start = Breakthrough.Initial(8, 8);
        ushort[] moves = start.LegalMoves();
        Check(moves.Length == 22, "22 legal moves at the 8x8 start, got " + moves.Length);
        Check(BreakthroughMove.Format(moves[0]) == "a2-a3", "first move a2-a3");
        Check(start.GameStatus == BreakthroughStatus.Ongoing && !start.IsOver, "start ongoing");
        Check(start.Columns == 8 && start.Rows == 8 && start.Turn == 0, "start fields");
        Check(start.Format().Length == 73, "8x8 text is 73 bytes");

        Breakthrough five = Breakthrough.Initial(5, 5);
        Check(five.Format() == "BBBBB/BBBBB/...../WWWWW/WWWWW w", "5x5 start text");
        Breakthrough parsed = Breakthrough.Parse("BBBBB/BBBBB/...../WWWWW/WWWWW w");
        Check(parsed.Equals(five) && parsed.Zobrist() == five.Zobrist() && parsed.Zobrist() != start.Zobrist(), "parse equals init");

        Breakthrough after = five; // a value: a copy
        after.Play(BreakthroughMove.Parse("c2-c3"));
        Check(after.Turn == 1 && five.Turn == 0 && after.Zobrist() != five.Zobrist(), "play in place, on the copy");
        Check(after.Format() == "BBBBB/BBBBB/..W../WW.WW/WWWWW b", "after c2-c3: " + after.Format());
        Breakthrough before = after;
        Throws(Status.IllegalMove, () => after.Play(BreakthroughMove.Parse("c3-c4")), "illegal move");
        Check(after.Equals(before), "illegal move changes nothing");

        ushort capture = BreakthroughMove.Parse("b4xa3");
        Check(BreakthroughMove.Format(capture) == "b4xa3", "capture text both ways");
        Throws(Status.InvalidArgument, () => BreakthroughMove.Format(0xE000), "move with bits 13-15");
        ParseFails(() => BreakthroughMove.Parse("b4?a3"), 3, "expected '-' for a move or 'x' for a capture", "move b4?a3");
        ParseFails(() => Breakthrough.Parse("BB/BB/../WW/WW x"), 16, "the side to move must be 'w' or 'b'", "side x");
        ParseFails(() => Breakthrough.Parse("B/B/./W/W w"), 2, "a board has 2 to 8 columns", "one column");
        ParseFails(() => Breakthrough.Parse("W./../../.B w"), 0, "the side to move has already won, so the game would have ended", "won already");
        Throws(Status.InvalidArgument, () => Breakthrough.Initial(9, 8), "9 columns");

        Breakthrough ending = Breakthrough.Parse("..../..../.B../..W. b");
        ending.Play(BreakthroughMove.Parse("b2-b1"));
        Check(ending.GameStatus == BreakthroughStatus.BlackWon && ending.LegalMoves().Length == 0, "Black won, no moves");
        Throws(Status.GameOver, () => ending.Play(BreakthroughMove.Parse("c1-c2")), "play after the end");

        Breakthrough foreign = new Breakthrough();
        Throws(Status.NotInitialised, () => foreign.LegalMoves(), "a struct arbor did not fill");
        Breakthrough other = five;
        other.Version += 1;
        Throws(Status.WrongVersion, () => other.Format(), "another version's struct");
    }

    static void TestBreakthroughSolver()
    {
        using (BreakthroughSolver solver = new BreakthroughSolver(1 << 16))
        {
            Check(solver.Table.Size == ((1L << 16) + 3) * 16, "table bytes");
            Check(solver.Table.Pointer.ToInt64() % Constants.BreakthroughSolveAlign == 0, "table aligned to 16");
            SolveResult loss = solver.Solve("BBBB/BBBB/..../WWWW/WWWW w");
            Check(loss.Outcome == SolveOutcome.Loss && loss.Decided && loss.BestMove == Constants.BreakthroughNoMove,
                  "4x5 start is a loss for the side to move, got " + loss.Outcome);
            Check(loss.TableEntries == 1UL << 16 && loss.PeakEntries > 0 && loss.Expanded > 0, "solve statistics");
            SolveResult patterned = solver.Solve(Breakthrough.Parse("BBBB/BBBB/..../WWWW/WWWW w"), ulong.MaxValue, Constants.BreakthroughSolvePatterns);
            Check(patterned.Outcome == SolveOutcome.Loss && patterned.Expanded < loss.Expanded, "patterns: fewer expansions");
            Breakthrough near = Breakthrough.Parse("B.../.W../..../.... w");
            SolveResult win = solver.Solve(near);
            Check(win.Outcome == SolveOutcome.Win, "a pawn a step from the end wins");
            near.Play(win.BestMove);
            Check(near.GameStatus == BreakthroughStatus.WhiteWon, "the winning move wins");
            SolveResult spent = solver.Solve("BBBB/BBBB/..../WWWW/WWWW w", 10);
            Check(spent.Outcome == SolveOutcome.BudgetSpent && !spent.Decided && spent.Expanded <= 10, "budget of 10");
            ParseFails(() => solver.Solve("not a position"), 1,
                       "expected a cell ('W', 'B' or '.'), '/' between rows, or a space before the side", "solve text");
        }
        Throws(Status.InvalidArgument, () => new BreakthroughSolver(12), "12 entries");
    }

    static void TestBreakthroughSearch()
    {
        Breakthrough start = Breakthrough.Initial(8, 8);
        bool ownClock = BreakthroughSearch.MaxThreads > 1; // the std build
        Check(BreakthroughSearch.NodesForIterations(start, 1000) == 48 * 1000 + 1, "node bound");
        BreakthroughSearchConfig mogo = BreakthroughSearchConfig.Default(SearchPolicy.Mogo);
        Check(mogo.Policy == SearchPolicy.Mogo && mogo.Solver == 1 && mogo.PlayoutCutoff == Constants.BreakthroughSearchNoCutoff, "MoGo defaults");

        // A short search returns a legal move; k runs of n are one run of k·n.
        using (BreakthroughSearch steps = new BreakthroughSearch(start, 30000, 11))
        using (BreakthroughSearch once = new BreakthroughSearch(start, 30000, 11))
        {
            Check(steps.Buffer.Pointer.ToInt64() % Constants.BreakthroughSearchAlign == 0, "handle aligned to 8");
            Check(steps.Buffer.Size == Constants.BreakthroughSearchHeadBytes + 30000L * Constants.BreakthroughSearchNodeBytes, "handle bytes");
            SearchProgress fresh = steps.Best();
            Check(!fresh.HasMove && fresh.Iterations == 0 && fresh.StopReason == StopReason.None, "fresh handle");
            SearchProgress p = new SearchProgress();
            for (ulong k = 1; k <= 5; k++)
            {
                p = steps.Run(SearchLimits.Iterations(200));
                Check(p.Iterations == k * 200 && p.IterationsThisCall == 200 && p.StopReason == StopReason.Iterations, "run " + k + " of 200");
            }
            SearchProgress q = once.Run(SearchLimits.Iterations(1000));
            Check(q.Iterations == 1000 && p.BestMove == q.BestMove && p.BestVisits == q.BestVisits
                  && p.BestValue == q.BestValue && p.RootVisits == q.RootVisits, "5 x 200 = 1000");
            Check(p.HasMove && LegalIn(start, p.BestMove) && p.BestValue > 0 && p.BestValue < 1, "a legal move");
            byte[] a = new byte[steps.Buffer.Size - Constants.BreakthroughSearchHeadBytes];
            byte[] b = new byte[a.Length];
            Marshal.Copy(IntPtr.Add(steps.Buffer.Pointer, Constants.BreakthroughSearchHeadBytes), a, 0, a.Length);
            Marshal.Copy(IntPtr.Add(once.Buffer.Pointer, Constants.BreakthroughSearchHeadBytes), b, 0, b.Length);
            bool same = true;
            for (int i = 0; i < a.Length && same; i++) same = a[i] == b[i];
            Check(same, "5 x 200 and 1000 leave the same tree, byte for byte");
            SearchProgress best = once.Best();
            Check(best.BestMove == q.BestMove && best.Iterations == 1000, "Best without searching");
            BreakthroughSearchStats stats = once.TreeStats();
            Check(stats.NodesUsed > 1 && stats.CapacityNodes == 30000 && stats.StorageFull == 0, "tree stats");

            once.Play((ushort)q.BestMove);
            SearchProgress kept = once.Best();
            Check(kept.RootVisits == q.BestVisits && kept.Iterations == 0, "tree reuse after Play");
            Breakthrough next = start;
            next.Play((ushort)q.BestMove);
            SearchProgress reply = once.Run(SearchLimits.Iterations(100));
            Check(reply.RootVisits == kept.RootVisits + 100 && LegalIn(next, reply.BestMove), "search on after Play");
            Throws(Status.IllegalMove, () => once.Play(BreakthroughMove.Parse("a2-a3")), "White's move when Black is to move");
        }

        // A frame budget: 3 ms, measured by arbor's clock (or the caller's, without std).
        using (BreakthroughSearch search = new BreakthroughSearch(start, 100000, 8, mogo))
        {
            SearchLimits frame = SearchLimits.Within(TimeSpan.FromMilliseconds(3));
            if (!ownClock) frame = frame.WithClock(steadyClock, IntPtr.Zero);
            long bestUs = long.MaxValue;
            SearchProgress p = new SearchProgress();
            bool every = true;
            int tries = 0;
            for (; tries < Attempts && bestUs >= 3000 + OverrunBoundUs; tries++)
            {
                long began = NowUs();
                p = search.Run(frame);
                long took = NowUs() - began;
                every = every && p.StopReason == StopReason.Deadline && p.IterationsThisCall > 0 && took >= 2999;
                bestUs = Math.Min(bestUs, took);
            }
            Check(every, "every frame run stopped at its deadline, not before");
            Console.WriteLine("ArborTest: a 3000 us frame budget took " + bestUs + " us (best of " + tries + "), " + p.IterationsThisCall + " iterations");
            Check(bestUs < 3000 + OverrunBoundUs, "a 3 ms budget overran: " + bestUs + " us");
            Check(LegalIn(start, p.BestMove), "legal move after the frame");
            fakeNow = 0;
            p = search.Run(SearchLimits.Within(TimeSpan.FromMilliseconds(1)).WithClock(fakeClock, IntPtr.Zero));
            Check(p.StopReason == StopReason.Deadline && p.IterationsThisCall == 9 && fakeNow == 1100,
                  "caller's clock: 9 iterations in 1000 us at 100 us a reading, got " + p.IterationsThisCall);
        }

        // Cancel from another thread: a run that would take 20 s returns promptly.
        using (BreakthroughSearch search = new BreakthroughSearch(start, 20000, 4))
        {
            SearchLimits forever = SearchLimits.Within(TimeSpan.FromSeconds(20)).WithClock(steadyClock, IntPtr.Zero);
            long bestUs = long.MaxValue;
            bool every = true;
            int tries = 0;
            for (; tries < Attempts && bestUs >= CancelBoundUs; tries++)
            {
                long cancelledAt = 0;
                Thread canceller = new Thread(() => {
                    Thread.Sleep(50);
                    Interlocked.Exchange(ref cancelledAt, NowUs());
                    search.Cancel();
                });
                canceller.Start();
                SearchProgress p = search.Run(forever);
                long returned = NowUs();
                canceller.Join();
                every = every && p.StopReason == StopReason.Cancelled && p.IterationsThisCall > 0 && LegalIn(start, p.BestMove);
                bestUs = Math.Min(bestUs, returned - Interlocked.Read(ref cancelledAt));
            }
            Check(every, "cancelled run");
            Console.WriteLine("ArborTest: a cancel from another thread ended the run in " + bestUs + " us (best of " + tries + ")");
            Check(bestUs < CancelBoundUs, "cancel took " + bestUs + " us");
            Check(search.Run(SearchLimits.Iterations(10)).StopReason == StopReason.Iterations, "the cancel was cleared");
            search.Cancel();
            SearchProgress stopped = search.Run(SearchLimits.Iterations(10));
            Check(stopped.StopReason == StopReason.Cancelled && stopped.IterationsThisCall == 0, "a cancel before a run stops it");
        }

        // After Dispose: refused, never freed memory.
        BreakthroughSearch disposed = new BreakthroughSearch(start, 100, 1);
        disposed.Dispose();
        try { disposed.Cancel(); Check(false, "Cancel after Dispose"); }
        catch (ObjectDisposedException) { Check(true, ""); }

        // A win in one is proven: Done; then the game is over for the handle.
        Breakthrough win = Breakthrough.Parse("B..../..W../...../....B/..... w");
        using (BreakthroughSearch search = new BreakthroughSearch(win, 5000, 3))
        {
            SearchProgress p = search.Run(SearchLimits.Iterations(500));
            Check(p.StopReason == StopReason.Done && p.BestValue == 1.0, "proven win: Done");
            Check(search.TreeStats().RootProof == Constants.BreakthroughSearchProofWin, "root proof: win");
            search.Play((ushort)p.BestMove);
            Throws(Status.GameOver, () => search.Run(SearchLimits.Iterations(1)), "run after the win");
        }
        Throws(Status.GameOver, () => new BreakthroughSearch(Breakthrough.Parse("..W./..../..../B... b"), 10, 1), "a won position");

        if (ownClock)
        {
            Breakthrough small = Breakthrough.Initial(6, 5);
            using (BreakthroughSearch a = new BreakthroughSearch(small, 40000, 5, mogo, 2))
            using (BreakthroughSearch b = new BreakthroughSearch(small, 40000, 5, mogo, 2))
            {
                SearchProgress p = a.Run(SearchLimits.Iterations(400), 2);
                SearchProgress q = b.Run(SearchLimits.Iterations(400), 2);
                Check(p.IterationsThisCall == 800 && p.BestMove == q.BestMove && p.RootVisits == q.RootVisits && LegalIn(small, p.BestMove),
                      "two threads: 800 iterations, reproducible");
            }
        }
    }

    // ---- Match-3 -------------------------------------------------------------------------

    // The 4x4 level of ffi-tests/match3.c: c1-c2 scores 120 + 2 * 60 = 240, one combo.
    const string Cascade = "size 4x4\ncolours 4\ngrid\nCDCA\nDCDC\nDCAD\nAABA\nfall a BC\nfall b BA\nfall c BD\nfall d C\n";
    // The small level of ffi-tests/playtest.c.
    const string SmallLevel = "size 6x6\ncolours 5\nmoves 8\nseed 3\n";

    static void ParseFailsAt(Action body, uint line, uint column, string message, string what)
    {
        try
        {
            body();
            Check(false, what + " (no exception)");
        }
        catch (ArborParseException e)
        {
            Check(e.Line == line && e.Column == column && e.Detail == message,
                  what + ": got " + e.Line + ":" + e.Column + " " + e.Detail);
        }
    }

    // Blittable by the CLR's rule: a sequential or explicit struct whose instance fields are
    // all blittable primitives, enums, pointers or such structs (no arrays, strings, bool,
    // char). Checked by reflection: Mono pins any object, so pinning proves nothing there.
    static bool Blittable<T>() where T : struct { return Blittable(typeof(T)); }

    static bool Blittable(Type type)
    {
        if (type.IsEnum) return Blittable(Enum.GetUnderlyingType(type));
        if (type == typeof(byte) || type == typeof(sbyte) || type == typeof(short) || type == typeof(ushort)
            || type == typeof(int) || type == typeof(uint) || type == typeof(long) || type == typeof(ulong)
            || type == typeof(float) || type == typeof(double) || type == typeof(IntPtr) || type == typeof(UIntPtr))
            return true;
        if (!type.IsValueType || type.IsPrimitive || type.IsAutoLayout) return false;
        foreach (System.Reflection.FieldInfo field in type.GetFields(System.Reflection.BindingFlags.Instance
                     | System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.NonPublic))
        {
            if (!Blittable(field.FieldType)) return false;
        }
        return true;
    }

    static bool SameBytes<T>(T a, T b) where T : struct
    {
        int size = Marshal.SizeOf(typeof(T));
        byte[] x = new byte[size], y = new byte[size];
        GCHandle pa = GCHandle.Alloc(a, GCHandleType.Pinned), pb = GCHandle.Alloc(b, GCHandleType.Pinned);
        try
        {
            Marshal.Copy(pa.AddrOfPinnedObject(), x, 0, size);
            Marshal.Copy(pb.AddrOfPinnedObject(), y, 0, size);
        }
        finally
        {
            pa.Free();
            pb.Free();
        }
        for (int i = 0; i < size; i++) if (x[i] != y[i]) return false;
        return true;
    }

    static void TestMatch3Games()
    {
        Match3Level level = Match3Level.Parse(Cascade);
        Match3Game game = Match3Game.Start(level, 1);
        byte[] moves = game.LegalMoves();
        byte code = Match3Text.ParseMove("c1-c2");
        Check(moves.Length > 0 && Array.IndexOf(moves, code) >= 0, "c1-c2 is legal");
        Match3Game before = game;
        Throws(Status.IllegalMove, () => game.Play(Match3Text.ParseMove("a1-b1")), "illegal Match-3 move");
        Check(SameBytes(before, game), "an illegal move changes nothing");
        Match3Outcome outcome = game.Play(code);
        Check(outcome.Points == 240 && outcome.Combos == 1 && outcome.LegalBefore == moves.Length,
              "c1-c2: 240 points and a combo, got " + outcome.Points);
        Match3Metrics metrics = game.Metrics();
        Check(metrics.Score == 240 && metrics.Moves == 1 && metrics.MoveLimit == 20 && metrics.AverageAvailable == moves.Length && !game.IsOver, "metrics");
        Check(before.Played == 0 && game.Played == 1, "the copy kept its own record");

        Check(Match3Text.ParseMove(" c2-c1 ") == code && Match3Text.FormatMove(code) == "c1-c2", "move text both ways");
        Throws(Status.InvalidArgument, () => Match3Text.FormatMove(0x80), "no move has code 0x80");
        ParseFailsAt(() => Match3Text.ParseMove("c1-c3"), 1, 0, "the two cells are not neighbours", "c1-c3");
        ParseFailsAt(() => Match3Level.Parse("size 7x7\ncolours 9\n"), 2, 9, "colours must be 3 to 8", "9 colours");
        ParseFailsAt(() => Match3Level.Parse("size 4x4\ncolours 3\ngrid\nABCA\nBCAB\nCADC\nABCA\n"), 6, 3,
                     "grid letter beyond the number of colours", "grid letter D");
        Throws(Status.InvalidArgument, () => Match3Level.Preset(3), "preset 3");
        Match3Level other = level;
        other.Version ^= 1;
        Throws(Status.WrongVersion, () => Match3Game.Start(other, 1), "a level of another version");

        byte[] formula = Match3Text.ParseFormula("div(W, N)");
        Check(formula.Length > 2 && formula[0] == 1, "formula binary form");
        ParseFailsAt(() => Match3Text.ParseFormula("add(W N)"), 1, 7, "expected `,`", "formula without comma");
        Match3Persona persona = Match3Persona.Parse("arbor-persona 1\ngoal MinM\nformula div(W, N)\ninfix W / N\n");
        byte[] personaFormula = persona.Formula();
        bool sameFormula = persona.Goal == Match3Goal.MinM && personaFormula.Length == formula.Length;
        for (int i = 0; sameFormula && i < formula.Length; i++) sameFormula = personaFormula[i] == formula[i];
        Check(sameFormula, "the persona's formula is the compiled one");
        ParseFailsAt(() => Match3Persona.Parse("goal Best\nformula W\n"), 1, 6, "goal must be MaxS, MinS, MaxM or MinM", "goal Best");
        ParseFailsAt(() => Match3Persona.Parse("goal MaxS\n"), 0, 0, "no formula or bytecode line", "no formula");
        for (uint i = 0; i < Constants.Match3ShippedPersonas; i++)
            Check(Match3Persona.Shipped(i).Goal == (Match3Goal)i, "shipped persona " + i);

        // A whole game on board1 with each agent: 20 moves, then over.
        Match3Level board1 = Match3Level.Preset(0);
        Check(board1.TreeBytes(40) == 16 + 40 * (1 + 40 * 84), "tree bytes of board1");
        using (NativeBuffer tree = board1.TreeBuffer(40))
        {
            Check(tree.Pointer.ToInt64() % Constants.Match3TreeAlign == 0, "tree aligned");
            Match3Agent[] agents = { Match3Agent.Random(), Match3Agent.Vanilla(), Match3Agent.Persona(Match3Persona.Shipped(2)) };
            foreach (Match3Agent agent in agents)
            {
                Match3Game g = Match3Game.Start(board1, 7);
                uint played = 0;
                while (!g.IsOver && played < 30)
                {
                    g.Play(g.AgentMove(agent, 40, 5 + played, agent.Kind == Match3Agent.RandomKind ? null : tree));
                    played++;
                }
                Match3Metrics m = g.Metrics();
                Check(played == 20 && m.Moves == 20 && m.GameOver == 1 && m.Score >= 20 * 60, "agent " + agent.Kind + " plays 20 moves");
                Throws(Status.GameOver, () => g.AgentMove(agent, 40, 1, tree), "agent after the end");
            }
        }
    }

    static void TestMatch3Search()
    {
        Match3Level board1 = Match3Level.Preset(0);
        Match3Game game = Match3Game.Start(board1, 7);
        Match3Agent vanilla = Match3Agent.Vanilla();
        using (Match3Search steps = new Match3Search(board1, game, vanilla, 120, 9))
        using (Match3Search once = new Match3Search(board1, game, vanilla, 120, 9))
        {
            Check(steps.Buffer.Size == 2392 + 40 * (1 + 120 * 84) && steps.Buffer.Pointer.ToInt64() % Constants.Match3SearchAlign == 0, "handle size and alignment");
            SearchProgress p = new SearchProgress();
            for (ulong k = 1; k <= 3; k++)
            {
                p = steps.Run(SearchLimits.Iterations(40));
                Check(p.Iterations == 40 * k && p.IterationsThisCall == 40 && p.StopReason == StopReason.Iterations, "Match-3 run " + k + " of 40");
            }
            SearchProgress q = once.Run(SearchLimits.Iterations(120));
            Check(p.BestMove == q.BestMove && p.BestVisits == q.BestVisits && p.BestValue == q.BestValue && q.RootVisits == 120, "3 x 40 = 120");
            using (NativeBuffer tree = board1.TreeBuffer(120))
                Check(game.AgentMove(vanilla, 120, 9, tree) == q.BestMove, "the handle chooses the one-shot agent's move");
            Check(Array.IndexOf(game.LegalMoves(), (byte)q.BestMove) >= 0, "a legal move");

            byte code = (byte)q.BestMove;
            once.Play(code);
            SearchProgress more = once.Run(SearchLimits.Iterations(10));
            Check(more.Iterations == 10 && more.RootVisits > 10, "tree reuse");
            Match3Game played = game;
            played.Play(code);
            Check(SameBytes(once.Game(), played), "the handle's game has the move played");
            Throws(Status.IllegalMove, () => once.Play(0x80), "illegal move in the handle");

            fakeNow = 0;
            SearchProgress timed = once.Run(SearchLimits.Within(TimeSpan.FromMilliseconds(2)).WithClock(fakeClock, IntPtr.Zero));
            Check(timed.StopReason == StopReason.Deadline && timed.IterationsThisCall == 19, "2 ms by the caller's clock: 19 iterations, got " + timed.IterationsThisCall);

            SearchLimits forever = SearchLimits.Within(TimeSpan.FromSeconds(20)).WithClock(steadyClock, IntPtr.Zero);
            long bestUs = long.MaxValue;
            bool every = true;
            int tries = 0;
            for (; tries < Attempts && bestUs >= CancelBoundUs; tries++)
            {
                long cancelledAt = 0;
                Thread canceller = new Thread(() => {
                    Thread.Sleep(30);
                    Interlocked.Exchange(ref cancelledAt, NowUs());
                    steps.Cancel();
                });
                canceller.Start();
                SearchProgress c = steps.Run(forever);
                long returned = NowUs();
                canceller.Join();
                every = every && c.StopReason == StopReason.Cancelled && c.IterationsThisCall > 0 && c.HasMove;
                bestUs = Math.Min(bestUs, returned - Interlocked.Read(ref cancelledAt));
            }
            Check(every, "Match-3 run cancelled");
            Console.WriteLine("ArborTest: Match-3 search: a cancel from another thread ended the run in " + bestUs + " us (best of " + tries + ")");
            Check(bestUs < CancelBoundUs, "Match-3 cancel took " + bestUs + " us");
        }
        using (Match3Search random = new Match3Search(board1, game, Match3Agent.Random(), 10, 3))
        {
            SearchProgress r = random.Run(SearchLimits.Iterations(10));
            Check(r.StopReason == StopReason.Done && r.HasMove, "Random chooses at once");
        }
        using (Match3Search persona = new Match3Search(board1, game, Match3Agent.Persona(Match3Persona.Shipped(0)), 40, 3))
            Check(persona.Run(SearchLimits.Iterations(40)).HasMove, "persona search");
    }

    static void TestMatch3Playtest()
    {
        string[] names = { "MaxS", "MinS", "MaxM", "MinM", "Vanilla", "Random" };
        for (uint i = 0; i < Constants.Match3PlaytestAgents; i++)
            Check(Match3Playtest.AgentName(i) == names[i], "agent name " + i);
        Throws(Status.InvalidArgument, () => Match3Playtest.AgentName(6), "agent 6");

        Match3Level level = Match3Level.Parse(SmallLevel);
        Match3PlaytestReport oneShot = Match3Playtest.Run(level, 3, 5, 10);
        for (int i = 0; i < Constants.Match3PlaytestAgents; i++)
            Check(oneShot.Games[i] == 3 && oneShot.MinScore[i] >= 8 * 60 && oneShot.MinScore[i] <= oneShot.MeanScore[i]
                  && oneShot.MeanScore[i] <= oneShot.MaxScore[i], "report row " + i);
        using (Match3Playtest stepped = new Match3Playtest(level, 3, 5, 10))
        {
            stepped.Cancel();
            Match3PlaytestProgress p = stepped.Step();
            Check(p.StopReason == StopReason.Cancelled && p.GamesDone == 0 && p.GamesTotal == 18, "a cancel before a step");
            uint steps = 0;
            while ((p = stepped.Step()).StopReason == StopReason.Step && steps < 100)
            {
                steps++;
                Check(p.GamesDone == steps, "games done " + steps);
            }
            Check(steps == 18 && p.StopReason == StopReason.Done, "18 steps, then Done");
            Check(SameBytes(stepped.Result(), oneShot), "stepped report equals the one-shot one, byte for byte");
        }
        // A long game (5,000 iterations a move), its step cancelled from another thread; the
        // best of three (a step given up is replayed by the next, so the handle is reused).
        using (Match3Playtest slow = new Match3Playtest(level, 1, 1, 5000))
        {
            long bestUs = long.MaxValue;
            bool every = true;
            int tries = 0;
            for (; tries < Attempts && bestUs >= CancelBoundUs; tries++)
            {
                long cancelledAt = 0;
                Thread canceller = new Thread(() => {
                    Thread.Sleep(20);
                    Interlocked.Exchange(ref cancelledAt, NowUs());
                    slow.Cancel();
                });
                canceller.Start();
                Match3PlaytestProgress c = slow.Step();
                long returned = NowUs();
                canceller.Join();
                every = every && c.StopReason == StopReason.Cancelled && c.GamesDone == 0;
                bestUs = Math.Min(bestUs, returned - Interlocked.Read(ref cancelledAt));
            }
            Check(every, "playtest step cancelled");
            Console.WriteLine("ArborTest: Match-3 playtest step cancelled from another thread: returned in " + bestUs + " us (best of " + tries + ")");
            Check(bestUs < CancelBoundUs, "playtest cancel took " + bestUs + " us");
        }
    }

    static void TestHoldemHands()
    {
        HoldemDealer dealer = HoldemDealer.Start(42);
        byte[] cards = dealer.NextHand();
        Check(cards[0] == 5 * 4 + 1 && cards[8] == 4 * 4 + 2 && dealer.HandsDealt == 1, "ACPC deal");
        HoldemHand hand = HoldemHand.Start();
        hand.DealHole(0, cards[0], cards[1]);
        hand.DealHole(1, cards[2], cards[3]);
        Check(hand.Info().MinRaiseTo == 200 && hand.Info().ToAct == 1, "blinds posted");
        HoldemHand before = hand;
        Throws(Status.IllegalMove, () => hand.Apply(150), "raise below the minimum");
        Check(hand.Info().ActionCount == before.Info().ActionCount, "refused action changed nothing");
        hand.Apply(20000);
        hand.Apply(Constants.HoldemCall);
        for (int i = 4; i < 9; i++) hand.DealBoard(cards[i]);
        int[] payoffs = hand.Payoffs();
        Check(payoffs[0] == 20000 && payoffs[1] == -20000, "showdown payoffs");
        Check(hand.FormatMatchstate(1) == "MATCHSTATE:1:0:r20000c///:7d3d|2hAc/5sKs7s/9s/6h", "MATCHSTATE out");
        string line = "MATCHSTATE:0:31:r300c/cr600:Jd4c|/8s2hQd";
        HoldemHand seen = HoldemHand.ParseMatchstate(line, HoldemHand.Start());
        Check(seen.FormatMatchstate(0) == line && seen.Info().MinRaiseTo == 900, "MATCHSTATE round trip");
        Check(HoldemHand.FormatAction(900) == "r900", "action text");
        Check(seen.BotAct("min-raise") == 900 && seen.BotAct("call") == Constants.HoldemCall, "bots");
        ParseFails(() => HoldemHand.ParseMatchstate("MATCHSTATE:0:31:r150c:Jd4c|", HoldemHand.Start()), 17, "raise to 150 is below the minimum 200", "MATCHSTATE below the minimum raise");
    }

    static void TestHoldemBot()
    {
        HoldemHand seen = HoldemHand.ParseMatchstate("MATCHSTATE:1:0::|AsAh", HoldemHand.Start());
        SearchLimits limits = SearchLimits.Iterations(0);
        SearchProgress progress;
        using (HoldemBot raiser = new HoldemBot("min-raise", 3))
        {
            Check(raiser.Decide(seen, limits, out progress) == 200 && progress.StopReason == StopReason.Done, "bot handle decides");
            raiser.Cancel();
            Check(raiser.Decide(seen, limits, out progress) == Constants.HoldemFold && progress.StopReason == StopReason.Cancelled, "a cancelled decision folds");
            Throws(Status.IllegalMove, () => raiser.HandOver(seen, 1), "hand not over");
        }
        using (HoldemBot first = new HoldemBot("equity:samples=300", 9))
        using (HoldemBot second = new HoldemBot("equity:samples=300", 9))
        {
            uint action = first.Decide(seen, limits, out progress);
            Check(action > Constants.HoldemCall && action == second.Decide(seen, limits, out progress), "same seed, same raise with aces");
        }
        Throws(Status.ParseError, () => new HoldemBot("genius", 1), "unknown bot");
    }

    static void TestGo()
    {
        Check(GoMove.Parse(9, "A1") == 0 && GoMove.Parse(9, "pass") == Constants.GoPass, "Go vertices");
        Check(GoMove.Format(19, 360) == "T19", "T19");
        Throws(Status.InvalidArgument, () => new GoGame(4), "size 4");
        Throws(Status.InvalidArgument, () => new GoGame(9, double.NaN), "komi NaN");
        using (GoGame game = new GoGame(5, 0.5))
        {
            foreach (string v in new[] { "B2", "C2", "A3", "D3", "B4", "C4", "C3", "B3" }) game.Play(v);
            GoInfo info = game.Info();
            Check(info.CapturesWhite == 1 && info.ToMove == Constants.GoBlack && info.Ko == 12, "capture and ko");
            Check(game.Check(12) == Constants.GoKo && game.Check(6) == Constants.GoOccupied, "ko and occupied refused");
            Throws(Status.IllegalMove, () => game.Play(12u), "the ko retaken");
            Check(game.LegalMoves().Length == 18 && game.Board().Length == 25, "legal moves and board");
            game.Play(Constants.GoPass);
            game.Play(Constants.GoPass);
            Check(game.Info().Over == 1, "two passes end the game");
            Throws(Status.GameOver, () => game.Play(Constants.GoPass), "a third pass");
            game.Play(0u);
            Check(game.Info().Over == 0 && game.Info().Passes == 0, "a stone after two passes resumes the game");
            game.Undo();
            game.Undo();
            GoScore score = game.Score();
            Check(score.Komi == 0.5 && score.Winner != Constants.GoEmpty, "score");
            GoScore final = game.FinalScore(3);
            Check(final.Komi == 0.5 && final.Black + final.White <= 25, "final score");
            byte[] status = game.FinalStatus(3);
            Check(status.Length == 25 && status[12] == Constants.GoStatusEmpty && status[6] != Constants.GoStatusEmpty, "final status");
            Check(game.Format().StartsWith("   A B C D E\n"), "diagram");
            string sgf = game.SgfFormat();
            using (GoGame read = new GoGame(19, 0))
            {
                read.SgfParse(sgf);
                Check(read.SgfFormat() == sgf, "SGF round trip");
                try { read.SgfParse("(;SZ[9];B[ee];W[ee])"); Check(false, "illegal SGF"); }
                catch (ArborParseException e) { Check(e.Line == 0 && e.Detail == "move 2: the point is occupied", "illegal SGF: " + e.Detail); }
                Check(read.SgfFormat() == sgf, "unchanged after a refused SGF");
            }
        }
        using (GoGame nine = new GoGame(9, 7.5))
        using (GoSearch steps = new GoSearch(nine, 20000, 5))
        using (GoSearch once = new GoSearch(nine, 20000, 5))
        {
            steps.Run(SearchLimits.Iterations(200));
            SearchProgress p = steps.Run(SearchLimits.Iterations(200));
            SearchProgress q = once.Run(SearchLimits.Iterations(400));
            Check(p.Iterations == 400 && p.BestMove == q.BestMove && p.BestVisits == q.BestVisits, "Go: 2 x 200 = 400");
            Check(nine.Check(p.BestMove) == Constants.GoLegal, "Go: a legal move");
            steps.Play(p.BestMove);
            nine.Play(p.BestMove);
            Check(steps.TreeStats().NodesUsed > 1, "Go: the subtree is kept");
            using (GoGame mirror = new GoGame(9, 0))
            {
                steps.CopyGame(mirror);
                Check(mirror.SgfFormat() == nine.SgfFormat(), "Go: the handle's game");
            }
            SearchProgress timed = steps.Run(SearchLimits.Within(TimeSpan.FromMilliseconds(20)).WithClock(steadyClock, IntPtr.Zero));
            Check(timed.StopReason == StopReason.Deadline && timed.IterationsThisCall > 0, "Go: deadline");
            GoDecision decision = steps.Decide();
            Check(decision.Resign == 0 && decision.SearchMove == timed.BestMove && nine.Check(decision.MoveToPlay) == Constants.GoLegal, "Go: decide");
            Thread canceller = new Thread(() => { Thread.Sleep(30); once.Cancel(); });
            canceller.Start();
            SearchProgress cancelled = once.Run(SearchLimits.Within(TimeSpan.FromSeconds(20)).WithClock(steadyClock, IntPtr.Zero));
            canceller.Join();
            Check(cancelled.StopReason == StopReason.Cancelled, "Go: cancel from another thread");
        }
    }

    static int Main()
    {
        // Layout and ABI: the struct mirrors have their C sizes.
        Library.CheckLayout();
        Check(Marshal.SizeOf(typeof(ParseError)) == Constants.ParseErrorBytes, "ParseError is 136 bytes");
        Check(Marshal.SizeOf(typeof(Breakthrough)) == 40 && Marshal.SizeOf(typeof(SearchProgress)) == 40, "Breakthrough and SearchProgress are 40 bytes");
        Check(Marshal.SizeOf(typeof(SearchLimits)) == 24 + 2 * IntPtr.Size, "SearchLimits is 24 bytes and two pointers");
        // Every mirror but ParseError (an error-path struct with a marshalled array) is
        // blittable: pinned and passed, never copied by the marshaller.
        Check(Blittable<Breakthrough>() && Blittable<SolveResult>() && Blittable<SearchLimits>() && Blittable<SearchProgress>()
              && Blittable<BreakthroughSearchConfig>() && Blittable<BreakthroughSearchStats>(), "Breakthrough and search mirrors are blittable");
        Check(Blittable<GoInfo>() && Blittable<GoScore>() && Blittable<GoSearchStats>() && Blittable<GoDecision>(), "Go mirrors are blittable");
        Check(Blittable<Match3Level>() && Blittable<Match3Game>() && Blittable<Match3Outcome>() && Blittable<Match3Metrics>()
              && Blittable<Match3Persona>() && Blittable<Match3PlaytestReport>() && Blittable<Match3PlaytestProgress>(), "Match-3 mirrors are blittable");
        Check(!Blittable<ParseError>(), "ParseError is marshalled (its message array)");
        Check((int)Marshal.OffsetOf(typeof(Match3Persona), "FormulaImage") == 16, "Match3Persona's formula at byte 16");

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
        // AhAd against KcKh on 2s 7d 9c Ks: only the two aces left win, of 44 rivers.
        byte[] turn = { C(0, 3), C(5, 1), C(7, 0), C(11, 3) };
        var showdowns = Cards.EquityHandVsHand(C(12, 2), C(12, 1), C(11, 0), C(11, 2), turn);
        Check(showdowns.Wins == 2 && showdowns.Ties == 0 && showdowns.Losses == 42, "AA against a set of kings");
        float[] kings = new float[Cards.Combos];
        int low = C(11, 0), high = C(11, 2);
        kings[high * (high - 1) / 2 + low] = 1.0f;
        var weighted = Cards.EquityHandVsRange(C(12, 2), C(12, 1), kings, turn);
        Check(weighted.Win == 2 && weighted.Tie == 0 && weighted.Loss == 42, "AA against a range of KcKh");
        Throws(Status.InvalidLength, () => Cards.EquityRangeVsRange(kings, new float[3], turn), "a short range");

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

        TestBreakthroughPositions();
        TestBreakthroughSolver();
        TestBreakthroughSearch();
        TestMatch3Games();
        TestMatch3Search();
        TestMatch3Playtest();
        TestHoldemHands();
        TestHoldemBot();
        TestGo();

        Console.WriteLine("ArborTest (C#): " + passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
