// The C# quick start of docs/bindings.md, compiled and run by .ci/bindings.sh:
//   mcs -out:Example.exe bindings/csharp/Arbor.cs bindings/csharp/Example.cs
//   LD_LIBRARY_PATH=PREFIX/lib mono Example.exe
using System;
using System.Threading;
using Arbor;

static class Example
{
    static int Main()
    {
        Library.CheckLayout();                          // ABI version and struct sizes, once

        // A Breakthrough search spread over frames: 4 ms a frame, then the game moves.
        Breakthrough position = Breakthrough.Initial(8, 8);
        using (BreakthroughSearch search = new BreakthroughSearch(position, 27 * 20000, 1))
        {
            SearchLimits frame = SearchLimits.Within(TimeSpan.FromMilliseconds(4));
            SearchProgress progress = new SearchProgress();
            for (int f = 0; f < 5; f++)                 // in Update(), once a frame
                progress = search.Run(frame);
            ushort move = (ushort)progress.BestMove;
            Console.WriteLine("after " + progress.Iterations + " iterations: " + BreakthroughMove.Format(move));
            position.Play(move);                        // the game's position
            search.Play(move);                          // the search keeps the subtree

            // Or one long think on a worker thread, cut short from the main thread.
            SearchProgress longThink = new SearchProgress();
            Thread worker = new Thread(() => longThink = search.Run(SearchLimits.Within(TimeSpan.FromSeconds(30))));
            worker.Start();
            Thread.Sleep(50);
            search.Cancel();                            // safe from any thread
            worker.Join();
            if (longThink.HasMove)
                Console.WriteLine("reply " + BreakthroughMove.Format((ushort)longThink.BestMove) + ", " + longThink.StopReason);
            return longThink.StopReason == StopReason.Cancelled && progress.StopReason == StopReason.Deadline ? 0 : 1;
        }
    }
}
