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
// - Structs: blittable [StructLayout(LayoutKind.Sequential)] mirrors with fixed-width
//   fields, passed by ref/out (pinned, not copied); their sizes are checked against the
//   ARBOR_..._BYTES values when the bindings are first used (`Library.CheckLayout`),
//   together with the library's ABI version. ParseError alone is marshalled.
// - Caller buffers: `NativeBuffer` (aligned unmanaged memory, freed by Dispose), held by
//   the IDisposable handle owners (BreakthroughSolver, BreakthroughSearch, GoGame, GoSearch,
//   Match3Search, Match3Playtest), whose Cancel may be called from any thread during a Run or Step.
//
// Coverage: all of ABI 1.0: statuses, versions, build information, hands, cards, the
// anytime search limits and progress, Breakthrough (positions, moves, the solver, the search
// handle), Go (the game buffer, vertices, SGF, the search handle), Match-3 (levels, games,
// personas, agents, the search handle, playtests one-shot and stepped).
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
        public const uint VersionMajor = 1;             // ARBOR_VERSION_MAJOR
        public const uint VersionMinor = 0;             // ARBOR_VERSION_MINOR
        public const uint VersionPatch = 0;             // ARBOR_VERSION_PATCH
        public const uint AbiVersion = 1;               // ARBOR_ABI_VERSION
        public const int StatusTextMax = 48;            // ARBOR_STATUS_TEXT_MAX
        public const int BuildInfoMax = 256;            // ARBOR_BUILD_INFO_MAX
        public const int ParseMessageMax = 120;         // ARBOR_PARSE_MESSAGE_MAX
        public const int ParseErrorBytes = 136;         // ARBOR_PARSE_ERROR_BYTES

        // Anytime searches.
        public const int SearchProgressBytes = 40;              // ARBOR_SEARCH_PROGRESS_BYTES
        public const uint SearchNoMove = 4294967295;            // ARBOR_SEARCH_NO_MOVE
        /// <summary>ARBOR_SEARCH_LIMITS_BYTES: 24 and two pointers.</summary>
        public static readonly int SearchLimitsBytes = 24 + 2 * IntPtr.Size;

        // Hold'em hands.
        public const int HoldemHandBytes = 1072;                // ARBOR_HOLDEM_HAND_BYTES
        public const int HoldemInfoBytes = 64;                  // ARBOR_HOLDEM_INFO_BYTES
        public const uint HoldemFold = 0;                       // ARBOR_HOLDEM_FOLD
        public const uint HoldemCall = 1;                       // ARBOR_HOLDEM_CALL
        public const uint HoldemNone = 4294967295;              // ARBOR_HOLDEM_NONE
        public const byte HoldemNoCard = 255;                   // ARBOR_HOLDEM_NO_CARD
        public const int HoldemMaxActions = 256;                // ARBOR_HOLDEM_MAX_ACTIONS
        public const uint HoldemAcpcStack = 20000;              // ARBOR_HOLDEM_ACPC_STACK
        public const uint HoldemAcpcBigBlind = 100;             // ARBOR_HOLDEM_ACPC_BIG_BLIND
        public const uint HoldemAcpcSmallBlind = 50;            // ARBOR_HOLDEM_ACPC_SMALL_BLIND
        public const int HoldemDealCards = 9;                   // ARBOR_HOLDEM_DEAL_CARDS
        public const int HoldemDealerBytes = 2520;              // ARBOR_HOLDEM_DEALER_BYTES
        public const int HoldemMatchstateTextMax = 4096;        // ARBOR_HOLDEM_MATCHSTATE_TEXT_MAX
        public const int HoldemActionTextMax = 12;              // ARBOR_HOLDEM_ACTION_TEXT_MAX
        public const int HoldemBotSpecMax = 256;                // ARBOR_HOLDEM_BOT_SPEC_MAX
        public const int HoldemBotAlign = 8;                    // ARBOR_HOLDEM_BOT_ALIGN
        public const int HoldemBotBytes = 1112;                 // ARBOR_HOLDEM_BOT_BYTES
        public const int HoldemBotLearnedBytes = 768;           // ARBOR_HOLDEM_BOT_LEARNED_BYTES
        public const int HoldemBotStackBytes = 524288;          // ARBOR_HOLDEM_BOT_STACK_BYTES

        // Breakthrough.
        public const int BreakthroughBytes = 40;                // ARBOR_BREAKTHROUGH_BYTES
        public const int BreakthroughMaxMoves = 48;             // ARBOR_BREAKTHROUGH_MAX_MOVES
        public const int BreakthroughTextMax = 74;              // ARBOR_BREAKTHROUGH_TEXT_MAX
        public const int BreakthroughMoveTextMax = 6;           // ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX
        public const ushort BreakthroughNoMove = 65535;         // ARBOR_BREAKTHROUGH_NO_MOVE
        public const int BreakthroughSolveAlign = 16;           // ARBOR_BREAKTHROUGH_SOLVE_ALIGN
        public const int BreakthroughSolveResultBytes = 40;     // ARBOR_BREAKTHROUGH_SOLVE_RESULT_BYTES
        public const uint BreakthroughSolvePatterns = 1;        // ARBOR_BREAKTHROUGH_SOLVE_PATTERNS
        public const int BreakthroughSearchAlign = 8;           // ARBOR_BREAKTHROUGH_SEARCH_ALIGN
        public const int BreakthroughSearchHeadBytes = 144;     // ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES
        public const int BreakthroughSearchNodeBytes = 40;      // ARBOR_BREAKTHROUGH_SEARCH_NODE_BYTES
        public const int BreakthroughSearchConfigBytes = 48;    // ARBOR_BREAKTHROUGH_SEARCH_CONFIG_BYTES
        public const int BreakthroughSearchStatsBytes = 16;     // ARBOR_BREAKTHROUGH_SEARCH_STATS_BYTES
        public const uint BreakthroughSearchMaxThreads = 64;    // ARBOR_BREAKTHROUGH_SEARCH_MAX_THREADS
        public const uint BreakthroughSearchNoCutoff = 4294967295; // ARBOR_BREAKTHROUGH_SEARCH_NO_CUTOFF
        public const uint BreakthroughSearchProofUnknown = 0;   // ARBOR_BREAKTHROUGH_SEARCH_PROOF_UNKNOWN
        public const uint BreakthroughSearchProofWin = 1;       // ARBOR_BREAKTHROUGH_SEARCH_PROOF_WIN
        public const uint BreakthroughSearchProofLoss = 2;      // ARBOR_BREAKTHROUGH_SEARCH_PROOF_LOSS

        // Go.
        public const uint GoMinSize = 5;                        // ARBOR_GO_MIN_SIZE
        public const uint GoMaxSize = 19;                       // ARBOR_GO_MAX_SIZE
        public const uint GoPass = 4294967294;                  // ARBOR_GO_PASS
        public const uint GoNone = 4294967295;                  // ARBOR_GO_NONE
        public const int GoMaxPoints = 361;                     // ARBOR_GO_MAX_POINTS
        public const int GoMaxMoves = 362;                      // ARBOR_GO_MAX_MOVES
        public const uint GoEmpty = 0;                          // ARBOR_GO_EMPTY
        public const uint GoBlack = 1;                          // ARBOR_GO_BLACK
        public const uint GoWhite = 2;                          // ARBOR_GO_WHITE
        public const uint GoLegal = 0;                          // ARBOR_GO_LEGAL
        public const uint GoOccupied = 1;                       // ARBOR_GO_OCCUPIED
        public const uint GoSuicide = 2;                        // ARBOR_GO_SUICIDE
        public const uint GoKo = 3;                             // ARBOR_GO_KO
        public const uint GoSuperko = 4;                        // ARBOR_GO_SUPERKO
        public const uint GoOver = 5;                           // ARBOR_GO_OVER
        public const byte GoStatusEmpty = 0;                    // ARBOR_GO_STATUS_EMPTY
        public const byte GoStatusAlive = 1;                    // ARBOR_GO_STATUS_ALIVE
        public const byte GoStatusDead = 2;                     // ARBOR_GO_STATUS_DEAD
        public const byte GoStatusSeki = 3;                     // ARBOR_GO_STATUS_SEKI
        public const int GoGameAlign = 8;                       // ARBOR_GO_GAME_ALIGN
        public const int GoGameHeadBytes = 40;                  // ARBOR_GO_GAME_HEAD_BYTES
        public const int GoDiagramTextMax = 821;                // ARBOR_GO_DIAGRAM_TEXT_MAX
        public const int GoSgfTextMax = 8192;                   // ARBOR_GO_SGF_TEXT_MAX
        public const int GoMoveTextMax = 5;                     // ARBOR_GO_MOVE_TEXT_MAX
        public const int GoStackBytes = 163840;                 // ARBOR_GO_STACK_BYTES
        public const int GoInfoBytes = 56;                      // ARBOR_GO_INFO_BYTES
        public const int GoScoreBytes = 32;                     // ARBOR_GO_SCORE_BYTES
        public const uint GoPlayerLight = 0;                    // ARBOR_GO_PLAYER_LIGHT
        public const uint GoPlayerMogo = 1;                     // ARBOR_GO_PLAYER_MOGO
        public const int GoSearchAlign = 8;                     // ARBOR_GO_SEARCH_ALIGN
        public const int GoSearchNodeBytes = 44;                // ARBOR_GO_SEARCH_NODE_BYTES
        public const uint GoSearchMaxThreads = 64;              // ARBOR_GO_SEARCH_MAX_THREADS
        public const int GoSearchStackBytes = 180224;           // ARBOR_GO_SEARCH_STACK_BYTES
        public const int GoSearchStatsBytes = 16;               // ARBOR_GO_SEARCH_STATS_BYTES
        public const int GoDecisionBytes = 24;                  // ARBOR_GO_DECISION_BYTES

        // Match-3.
        public const int Match3LevelBytes = 1708;               // ARBOR_MATCH3_LEVEL_BYTES
        public const int Match3LevelImageBytes = 1700;          // ARBOR_MATCH3_LEVEL_IMAGE_BYTES
        public const int Match3GameBytes = 1984;                // ARBOR_MATCH3_GAME_BYTES
        public const int Match3MaxRecord = 255;                 // ARBOR_MATCH3_MAX_RECORD
        public const int Match3OutcomeBytes = 16;               // ARBOR_MATCH3_OUTCOME_BYTES
        public const int Match3MetricsBytes = 40;               // ARBOR_MATCH3_METRICS_BYTES
        public const int Match3MaxMoves = 112;                  // ARBOR_MATCH3_MAX_MOVES
        public const int Match3MoveTextMax = 6;                 // ARBOR_MATCH3_MOVE_TEXT_MAX
        public const uint Match3MaxIterations = 10000000;       // ARBOR_MATCH3_MAX_ITERATIONS
        public const int Match3TreeAlign = 8;                   // ARBOR_MATCH3_TREE_ALIGN
        public const int Match3SearchAlign = 8;                 // ARBOR_MATCH3_SEARCH_ALIGN
        public const int Match3FormulaMaxBytes = 322;           // ARBOR_MATCH3_FORMULA_MAX_BYTES
        public const int Match3PersonaBytes = 340;              // ARBOR_MATCH3_PERSONA_BYTES
        public const int Match3ShippedPersonas = 4;             // ARBOR_MATCH3_SHIPPED_PERSONAS
        public const int Match3PlaytestAgents = 6;              // ARBOR_MATCH3_PLAYTEST_AGENTS
        public const int Match3AgentNameMax = 8;                // ARBOR_MATCH3_AGENT_NAME_MAX
        public const int Match3PlaytestReportBytes = 168;       // ARBOR_MATCH3_PLAYTEST_REPORT_BYTES
        public const int Match3PlaytestAlign = 8;               // ARBOR_MATCH3_PLAYTEST_ALIGN
        public const int Match3PlaytestProgressBytes = 16;      // ARBOR_MATCH3_PLAYTEST_PROGRESS_BYTES
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
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_struct_bytes(byte[] name, UIntPtr len, out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_build_info(byte[] buf, UIntPtr len, out UIntPtr outLen);

        // Hands and cards.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_hand_rank(byte[] cards, UIntPtr len, out ushort outRank);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_hand_rank7_batch(byte[] cards, UIntPtr count, [Out] ushort[] outRanks);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern byte arbor_hand_category(ushort rank);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_equity_hand_vs_hand(byte[] cards, UIntPtr len, out ulong outWins, out ulong outTies, out ulong outLosses);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_equity_hand_vs_range(byte[] cards, UIntPtr len, float[] villain, UIntPtr villainLen, out double outWin, out double outTie, out double outLoss);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_equity_range_vs_range(float[] hero, UIntPtr heroLen, float[] villain, UIntPtr villainLen, byte[] board, UIntPtr boardLen, out double outWin, out double outTie, out double outLoss);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_card_parse(byte[] text, UIntPtr len, out byte outCard, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_card_format(byte card, byte[] buf, UIntPtr len, out UIntPtr outLen);

        // Hold'em hands (src/ffi/holdem_hand.rs). `ref HoldemHand` for the C `const arbor_holdem_hand *` too.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_hand_init(uint stack0, uint stack1, uint bigBlind, uint smallBlind, out HoldemHand outHand);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_hand_deal_hole(ref HoldemHand hand, uint position, byte[] cards, UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_hand_deal_board(ref HoldemHand hand, byte card);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_hand_apply(ref HoldemHand hand, uint action);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_hand_info(ref HoldemHand hand, out HoldemInfo outInfo);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_hand_payoffs(ref HoldemHand hand, [Out] int[] outPayoffs, UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_dealer_init(uint seed, out HoldemDealer outDealer);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_dealer_next(ref HoldemDealer dealer, [Out] byte[] outCards, UIntPtr capacity);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_matchstate_parse(byte[] text, UIntPtr len, ref HoldemHand rules, out HoldemHand outHand, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_matchstate_format(ref HoldemHand hand, uint position, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_action_format(uint action, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_bot_act(byte[] spec, UIntPtr specLen, ref HoldemHand hand, out uint outAction, out ParseError outError);

        // Hold'em bot handles (src/ffi/holdem_bot.rs).
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_bot_bytes(out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_bot_init(IntPtr buf, UIntPtr len, byte[] spec, UIntPtr specLen, ulong seed, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_bot_decide(IntPtr buf, UIntPtr len, ref HoldemHand hand, ref SearchLimits limits, out uint outAction, out SearchProgress outProgress);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_bot_hand_over(IntPtr buf, UIntPtr len, ref HoldemHand hand, uint position);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_holdem_bot_cancel(IntPtr buf, UIntPtr len);

        // Anytime search limits (src/ffi/search.rs).
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_search_limits_init(uint maxIterations, out SearchLimits outLimits);

        // Breakthrough positions and moves. `ref Breakthrough` for the C `const arbor_breakthrough *`
        // too: the struct is blittable, so it is pinned and passed, never copied.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_init(uint columns, uint rows, out Breakthrough outState);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_parse(byte[] text, UIntPtr len, out Breakthrough outState, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_format(ref Breakthrough state, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_legal_moves(ref Breakthrough state, [Out] ushort[] outMoves, UIntPtr capacity, out UIntPtr outCount);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_play(ref Breakthrough state, ushort mv);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_status(ref Breakthrough state, out uint outStatus);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_hash(ref Breakthrough state, out ulong outHash);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_move_parse(byte[] text, UIntPtr len, out ushort outMove, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_move_format(ushort mv, byte[] buf, UIntPtr len, out UIntPtr outLen);

        // Breakthrough solver: the table is a NativeBuffer's Pointer.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_solve_bytes(UIntPtr entries, out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_solve(byte[] text, UIntPtr textLen, IntPtr buf, UIntPtr len, ulong maxExpansions, uint options, out SolveResult outResult, out ParseError outError);

        // Breakthrough search handle: the handle is a NativeBuffer's Pointer.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_default_config(uint policy, out BreakthroughSearchConfig outConfig);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_bytes(uint capacityNodes, uint threads, out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_nodes_for_iterations(ref Breakthrough position, uint iterations, out uint outNodes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_init(IntPtr buf, UIntPtr len, ref BreakthroughSearchConfig config, ref Breakthrough position, ulong seed);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_run(IntPtr buf, UIntPtr len, ref SearchLimits limits, uint threads, out SearchProgress outProgress);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_cancel(IntPtr buf, UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_play(IntPtr buf, UIntPtr len, ushort mv);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_best(IntPtr buf, UIntPtr len, out SearchProgress outProgress);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_breakthrough_search_tree_stats(IntPtr buf, UIntPtr len, out BreakthroughSearchStats outStats);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern uint arbor_breakthrough_search_max_threads();

        // Go: the game buffer and the search handle are NativeBuffers' Pointers.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_bytes(uint size, out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_init(IntPtr buf, UIntPtr len, uint size, double komi);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_set_komi(IntPtr buf, UIntPtr len, double komi);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_play(IntPtr buf, UIntPtr len, uint mv);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_check(IntPtr buf, UIntPtr len, uint mv, out uint outReason);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_legal_moves(IntPtr buf, UIntPtr len, [Out] uint[] outMoves, UIntPtr capacity, out UIntPtr outCount);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_board(IntPtr buf, UIntPtr len, [Out] byte[] outPoints, UIntPtr capacity, out UIntPtr outCount);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_info(IntPtr buf, UIntPtr len, out GoInfo outInfo);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_undo(IntPtr buf, UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_score(IntPtr buf, UIntPtr len, out GoScore outScore);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_final_score(IntPtr buf, UIntPtr len, ulong seed, out GoScore outScore);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_final_status(IntPtr buf, UIntPtr len, ulong seed, [Out] byte[] outStatus, UIntPtr capacity, out UIntPtr outCount);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_format(IntPtr game, UIntPtr gameLen, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_sgf_parse(IntPtr game, UIntPtr gameLen, byte[] text, UIntPtr len, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_game_sgf_format(IntPtr game, UIntPtr gameLen, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_move_parse(uint size, byte[] text, UIntPtr len, out uint outMove, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_move_format(uint size, uint mv, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_search_bytes(uint size, uint capacityNodes, uint threads, out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_search_init(IntPtr buf, UIntPtr len, IntPtr game, UIntPtr gameLen, uint player, ulong seed);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_search_run(IntPtr buf, UIntPtr len, ref SearchLimits limits, uint threads, out SearchProgress outProgress);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_search_cancel(IntPtr buf, UIntPtr len);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_search_decide(IntPtr buf, UIntPtr len, out GoDecision outDecision);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_search_play(IntPtr buf, UIntPtr len, uint mv);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_search_game(IntPtr buf, UIntPtr len, IntPtr game, UIntPtr gameLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_go_search_tree_stats(IntPtr buf, UIntPtr len, out GoSearchStats outStats);

        // Match-3: levels, games, moves, formulas, agents. `ref` for the C `const …*` structs
        // too: they are blittable, so they are pinned and passed, never copied.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_level_parse(byte[] text, UIntPtr len, out Match3Level outLevel, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_level_preset(uint index, out Match3Level outLevel);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_game_start(ref Match3Level level, ulong seed, out Match3Game outGame);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_legal_moves(ref Match3Game game, [Out] byte[] outMoves, UIntPtr capacity, out UIntPtr outCount);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_play(ref Match3Game game, byte code, out Match3Outcome outOutcome);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_game_metrics(ref Match3Game game, out Match3Metrics outMetrics);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_move_parse(byte[] text, UIntPtr len, out byte outCode, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_move_format(byte code, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_formula_parse(byte[] text, UIntPtr len, [Out] byte[] outFormula, UIntPtr capacity, out UIntPtr outBytes, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_tree_bytes(ref Match3Level level, uint iterations, out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_agent_move(ref Match3Game game, uint agent, uint goal, byte[] formula, UIntPtr formulaLen, uint iterations, ulong seed, IntPtr tree, UIntPtr treeBytes, out byte outCode);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_persona_parse(byte[] text, UIntPtr len, out Match3Persona outPersona, out ParseError outError);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_persona_shipped(uint index, out Match3Persona outPersona);

        // Match-3 agent search handle: the handle is a NativeBuffer's Pointer.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_search_bytes(ref Match3Level level, uint iterations, out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_search_init(IntPtr buf, UIntPtr len, ref Match3Game game, uint agent, uint goal, byte[] formula, UIntPtr formulaLen, ulong seed);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_search_run(IntPtr buf, UIntPtr len, ref SearchLimits limits, out SearchProgress outProgress);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_search_play(IntPtr buf, UIntPtr len, byte code);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_search_game(IntPtr buf, UIntPtr len, out Match3Game outGame);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_search_cancel(IntPtr buf, UIntPtr len);

        // Match-3 playtests, one-shot and stepped.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_playtest_agent_format(uint index, byte[] buf, UIntPtr len, out UIntPtr outLen);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_playtest(ref Match3Level level, uint games, ulong seed, uint iterations, IntPtr tree, UIntPtr treeBytes, out Match3PlaytestReport outReport);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_playtest_bytes(ref Match3Level level, uint iterations, out UIntPtr outBytes);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_playtest_init(IntPtr buf, UIntPtr len, ref Match3Level level, uint games, ulong seed, uint iterations);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_playtest_step(IntPtr buf, UIntPtr len, out Match3PlaytestProgress outProgress);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_playtest_result(IntPtr buf, UIntPtr len, out Match3PlaytestReport outReport);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] public static extern Status arbor_match3_playtest_cancel(IntPtr buf, UIntPtr len);
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
            CheckSize(typeof(ParseError), Constants.ParseErrorBytes, "arbor_parse_error");
            CheckSize(typeof(SearchLimits), Constants.SearchLimitsBytes, "arbor_search_limits");
            CheckSize(typeof(SearchProgress), Constants.SearchProgressBytes, "arbor_search_progress");
            CheckSize(typeof(HoldemDealer), Constants.HoldemDealerBytes, "arbor_holdem_dealer");
            CheckSize(typeof(HoldemHand), Constants.HoldemHandBytes, "arbor_holdem_hand");
            CheckSize(typeof(HoldemInfo), Constants.HoldemInfoBytes, "arbor_holdem_info");
            CheckSize(typeof(Breakthrough), Constants.BreakthroughBytes, "arbor_breakthrough");
            CheckSize(typeof(SolveResult), Constants.BreakthroughSolveResultBytes, "arbor_breakthrough_solve_result");
            CheckSize(typeof(BreakthroughSearchConfig), Constants.BreakthroughSearchConfigBytes, "arbor_breakthrough_search_config");
            CheckSize(typeof(BreakthroughSearchStats), Constants.BreakthroughSearchStatsBytes, "arbor_breakthrough_search_stats");
            CheckSize(typeof(GoInfo), Constants.GoInfoBytes, "arbor_go_info");
            CheckSize(typeof(GoScore), Constants.GoScoreBytes, "arbor_go_score");
            CheckSize(typeof(GoSearchStats), Constants.GoSearchStatsBytes, "arbor_go_search_stats");
            CheckSize(typeof(GoDecision), Constants.GoDecisionBytes, "arbor_go_decision");
            CheckSize(typeof(Match3Level), Constants.Match3LevelBytes, "arbor_match3_level");
            CheckSize(typeof(Match3Game), Constants.Match3GameBytes, "arbor_match3_game");
            CheckSize(typeof(Match3Outcome), Constants.Match3OutcomeBytes, "arbor_match3_outcome");
            CheckSize(typeof(Match3Metrics), Constants.Match3MetricsBytes, "arbor_match3_metrics");
            CheckSize(typeof(Match3Persona), Constants.Match3PersonaBytes, "arbor_match3_persona");
            CheckSize(typeof(Match3PlaytestReport), Constants.Match3PlaytestReportBytes, "arbor_match3_playtest_report");
            CheckSize(typeof(Match3PlaytestProgress), Constants.Match3PlaytestProgressBytes, "arbor_match3_playtest_progress");
            checkedLayout = true;
        }

        /// The mirror's size against the header's (Constants) and the loaded library's.
        static void CheckSize(Type type, int bytes, string cName)
        {
            int size = Marshal.SizeOf(type);
            byte[] name = Text.Utf8(cName);
            UIntPtr library;
            Status status = Native.arbor_struct_bytes(name, (UIntPtr)name.Length, out library);
            if (status != Status.Ok)
                throw new ArborException(status, "arbor_struct_bytes(" + cName + ")");
            if (size != bytes || (ulong)size != library.ToUInt64())
                throw new InvalidOperationException(type.Name + " is " + size + " bytes, the header says " + bytes + ", the library " + library);
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

        /// <summary>Weights of a range: one per two-card combo, in arbor_equity's order.</summary>
        public const int Combos = 1326; // ARBOR_EQUITY_COMBOS

        /// <summary>Exact (wins, ties, losses) of hand (hero0, hero1) against (villain0,
        /// villain1) over every completion of the board (0, 3, 4 or 5 cards).</summary>
        public static (ulong Wins, ulong Ties, ulong Losses) EquityHandVsHand(byte hero0, byte hero1, byte villain0, byte villain1, params byte[] board)
        {
            Library.CheckLayout();
            byte[] cards = new byte[4 + (board == null ? 0 : board.Length)];
            cards[0] = hero0; cards[1] = hero1; cards[2] = villain0; cards[3] = villain1;
            if (board != null) Array.Copy(board, 0, cards, 4, board.Length);
            ulong wins, ties, losses;
            Text.Check(Native.arbor_equity_hand_vs_hand(cards, (UIntPtr)cards.Length, out wins, out ties, out losses), "arbor_equity_hand_vs_hand");
            return (wins, ties, losses);
        }

        /// <summary>Exact weighted (win, tie, loss) of a hand against a range of Combos
        /// weights on a board of 3, 4 or 5 cards.</summary>
        public static (double Win, double Tie, double Loss) EquityHandVsRange(byte hero0, byte hero1, float[] villain, params byte[] board)
        {
            Library.CheckLayout();
            byte[] cards = new byte[2 + (board == null ? 0 : board.Length)];
            cards[0] = hero0; cards[1] = hero1;
            if (board != null) Array.Copy(board, 0, cards, 2, board.Length);
            double win, tie, loss;
            Text.Check(Native.arbor_equity_hand_vs_range(cards, (UIntPtr)cards.Length, villain, (UIntPtr)(villain == null ? 0 : villain.Length), out win, out tie, out loss), "arbor_equity_hand_vs_range");
            return (win, tie, loss);
        }

        /// <summary>Exact weighted (win, tie, loss) of a range against a range on a board of
        /// 3, 4 or 5 cards.</summary>
        public static (double Win, double Tie, double Loss) EquityRangeVsRange(float[] hero, float[] villain, params byte[] board)
        {
            Library.CheckLayout();
            double win, tie, loss;
            Text.Check(Native.arbor_equity_range_vs_range(hero, (UIntPtr)(hero == null ? 0 : hero.Length), villain, (UIntPtr)(villain == null ? 0 : villain.Length), board, (UIntPtr)(board == null ? 0 : board.Length), out win, out tie, out loss), "arbor_equity_range_vs_range");
            return (win, tie, loss);
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
    /// Dispose or the finalizer. Pass <see cref="Pointer"/> as the C `void *buf` and
    /// <see cref="Size"/> as its length.</summary>
    /// <remarks>Alignment: Marshal.AllocHGlobal is malloc on Unix and LocalAlloc on Windows,
    /// 16-byte aligned on 64-bit targets and 8-byte on 32-bit ones. arbor's alignments are 8
    /// (search handles, Match-3 trees and handles) and 16 (the solver's table), so the block
    /// is normally used as it comes; when its address is not a multiple of `align` (a 32-bit
    /// target and the solver), it is allocated again with `align - 1` bytes more and
    /// Pointer rounded up (<see cref="Padded"/>). Pointer is always a multiple of `align`.</remarks>
    public sealed class NativeBuffer : SafeHandle
    {
        readonly IntPtr aligned;

        public NativeBuffer(long bytes, int align) : base(IntPtr.Zero, true)
        {
            if (bytes < 0 || align <= 0 || (align & (align - 1)) != 0)
                throw new ArborException(Status.InvalidArgument, "NativeBuffer");
            Size = bytes;
            Alignment = align;
            IntPtr raw = Marshal.AllocHGlobal(new IntPtr(Math.Max(bytes, 1)));
            if (raw.ToInt64() % align != 0)
            {
                Marshal.FreeHGlobal(raw);
                raw = Marshal.AllocHGlobal(new IntPtr(bytes + align - 1));
                Padded = true;
            }
            SetHandle(raw);
            long address = raw.ToInt64();
            aligned = new IntPtr((address + align - 1) & ~((long)align - 1));
        }

        /// <summary>The aligned start, valid until Dispose.</summary>
        public IntPtr Pointer { get { return aligned; } }
        public long Size { get; private set; }
        public int Alignment { get; private set; }
        /// <summary>True when AllocHGlobal's block was not aligned enough and was padded.</summary>
        public bool Padded { get; private set; }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        /// <summary>Holds a reference on the buffer for the length of a native call
        /// (`using (new NativeBuffer.Lease(buffer)) …`): a Dispose on another thread then
        /// frees the memory only after the call, and a call after Dispose throws
        /// ObjectDisposedException. A null buffer is allowed (nothing held).</summary>
        public struct Lease : IDisposable
        {
            readonly NativeBuffer buffer;
            readonly bool added;

            public Lease(NativeBuffer buffer)
            {
                this.buffer = buffer;
                bool taken = false;
                if (buffer != null) buffer.DangerousAddRef(ref taken);
                added = taken;
            }

            public void Dispose()
            {
                if (added) buffer.DangerousRelease();
            }
        }

        protected override bool ReleaseHandle()
        {
            Marshal.FreeHGlobal(handle);
            return true;
        }
    }

    // ---- Anytime search: limits and progress (src/ffi/search.rs) -------------------------

    /// <summary>Why a search run (or a playtest step) stopped: ARBOR_STOP_*. None before any
    /// run on the current root.</summary>
    public enum StopReason : uint
    {
        None = 0,
        Iterations = 1,
        Deadline = 2,
        Cancelled = 3,
        Done = 4,
        Step = 5,
    }

    /// <summary>A monotonic microsecond clock of the caller's, for SearchLimits.NowUs.</summary>
    /// <remarks>arbor calls it on the searching thread. Keep the delegate alive (a field) as
    /// long as the limits are used: the GC does not see the function pointer. Under IL2CPP
    /// it must be a static method marked [AOT.MonoPInvokeCallback(typeof(ClockFn))].</remarks>
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    public delegate ulong ClockFn(IntPtr ctx);

    /// <summary>arbor_search_limits: the stop conditions of one run (filled by
    /// arbor_search_limits_init; reuse it for every run). Its size depends on the target (two
    /// pointers): Constants.SearchLimitsBytes.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SearchLimits
    {
        public uint Magic;
        public uint Version;
        /// <summary>Most iterations of a run; 0 for no limit.</summary>
        public uint MaxIterations;
        public uint Reserved;
        /// <summary>Microseconds a run may take; 0 for no deadline.</summary>
        public ulong DeadlineUs;
        /// <summary>The caller's clock (Marshal.GetFunctionPointerForDelegate of a ClockFn),
        /// or zero for the library's monotonic clock (a no_std build needs one).</summary>
        public IntPtr NowUs;
        /// <summary>Passed to NowUs.</summary>
        public IntPtr Ctx;

        /// <summary>At most `maxIterations` iterations a run (0: none).</summary>
        public static SearchLimits Iterations(uint maxIterations)
        {
            SearchLimits limits;
            Text.Check(Native.arbor_search_limits_init(maxIterations, out limits), "arbor_search_limits_init");
            return limits;
        }

        /// <summary>A run that ends after `budget` (a frame's share), or `maxIterations`.</summary>
        public static SearchLimits Within(TimeSpan budget, uint maxIterations = 0)
        {
            SearchLimits limits = Iterations(maxIterations);
            long us = budget.Ticks / 10;
            limits.DeadlineUs = us > 0 ? (ulong)us : 0;
            return limits;
        }

        /// <summary>Measures the deadline with `clock` (keep it alive; see ClockFn).</summary>
        public SearchLimits WithClock(ClockFn clock, IntPtr ctx)
        {
            NowUs = clock == null ? IntPtr.Zero : Marshal.GetFunctionPointerForDelegate(clock);
            Ctx = ctx;
            return this;
        }
    }

    /// <summary>arbor_search_progress: what a run did and the move to play now.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SearchProgress
    {
        /// <summary>Iterations on this root (every run since init or the last Play).</summary>
        public ulong Iterations;
        public uint IterationsThisCall;
        public StopReason StopReason;
        /// <summary>The move to play now, or Constants.SearchNoMove (see HasMove).</summary>
        public uint BestMove;
        public uint BestVisits;
        /// <summary>Mean reward of BestMove for the side to move, in [0, 1].</summary>
        public double BestValue;
        public ulong RootVisits;

        public bool HasMove { get { return BestMove != Constants.SearchNoMove; } }
    }

    // ---- Breakthrough --------------------------------------------------------------------

    /// <summary>arbor_breakthrough_status.</summary>
    public enum BreakthroughStatus : uint
    {
        Ongoing = 0,
        WhiteWon = 1,
        BlackWon = 2,
    }

    /// <summary>arbor_breakthrough: a position, 40 bytes, a value (copy it, save it).
    /// Every call checks it, so one from another version or changed by hand is refused,
    /// never misread. Moves are ushort, packed as LegalMoves lists them.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Breakthrough
    {
        public uint Magic;
        public uint Version;
        /// <summary>White pawns, bit rank * 8 + file (a1 = bit 0).</summary>
        public ulong White;
        public ulong Black;
        /// <summary>The Zobrist hash as stored (Zobrist() recomputes and checks it).</summary>
        public ulong Hash;
        public byte Columns;
        public byte Rows;
        /// <summary>0 White to move, 1 Black.</summary>
        public byte Turn;
        // uint8_t reserved[5], as single bytes: an inline array would not be blittable.
        public byte Reserved0, Reserved1, Reserved2, Reserved3, Reserved4;

        /// <summary>The start of a columns x rows board (2..8 x 4..8), White to move.</summary>
        public static Breakthrough Initial(uint columns = 8, uint rows = 8)
        {
            Library.CheckLayout();
            Breakthrough state;
            Text.Check(Native.arbor_breakthrough_init(columns, rows, out state), "arbor_breakthrough_init");
            return state;
        }

        /// <summary>Parses "BBBBB/BBBBB/...../WWWWW/WWWWW w". Throws ArborParseException.</summary>
        public static Breakthrough Parse(string text)
        {
            Library.CheckLayout();
            byte[] bytes = Text.Utf8(text);
            Breakthrough state;
            ParseError error;
            Status status = Native.arbor_breakthrough_parse(bytes, (UIntPtr)bytes.Length, out state, out error);
            Text.CheckParse(status, error, "arbor_breakthrough_parse");
            return state;
        }

        /// <summary>The text Parse reads.</summary>
        public string Format()
        {
            Breakthrough self = this;
            return Text.Format("arbor_breakthrough_format", delegate (byte[] buf, UIntPtr len, out UIntPtr outLen) {
                return Native.arbor_breakthrough_format(ref self, buf, len, out outLen);
            });
        }

        /// <summary>The legal moves (none once the game is over).</summary>
        public ushort[] LegalMoves()
        {
            ushort[] moves = new ushort[Constants.BreakthroughMaxMoves];
            UIntPtr count;
            Text.Check(Native.arbor_breakthrough_legal_moves(ref this, moves, (UIntPtr)moves.Length, out count), "arbor_breakthrough_legal_moves");
            Array.Resize(ref moves, (int)count.ToUInt64());
            return moves;
        }

        /// <summary>Plays `move` in place; throws (IllegalMove, GameOver, …) and is then unchanged.</summary>
        public void Play(ushort move)
        {
            Text.Check(Native.arbor_breakthrough_play(ref this, move), "arbor_breakthrough_play");
        }

        public BreakthroughStatus GameStatus
        {
            get
            {
                uint status;
                Text.Check(Native.arbor_breakthrough_status(ref this, out status), "arbor_breakthrough_status");
                return (BreakthroughStatus)status;
            }
        }

        public bool IsOver { get { return GameStatus != BreakthroughStatus.Ongoing; } }

        /// <summary>The Zobrist hash recomputed from the pawns (arbor_breakthrough_hash).</summary>
        public ulong Zobrist()
        {
            ulong hash;
            Text.Check(Native.arbor_breakthrough_hash(ref this, out hash), "arbor_breakthrough_hash");
            return hash;
        }
    }

    /// <summary>arbor_holdem_info: what the rules say about a hand now.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HoldemInfo
    {
        /// <summary>0 preflop, 1 flop, 2 turn, 3 river.</summary>
        public uint Street;
        /// <summary>The position to act, or Constants.HoldemNone.</summary>
        public uint ToAct;
        public uint Over;
        public uint BettingOver;
        /// <summary>The position that folded, or Constants.HoldemNone.</summary>
        public uint Folded;
        public uint BoardCardsDue;
        public uint Pot;
        public uint Spent0, Spent1;
        public uint CurrentBet;
        public uint CanFold;
        public uint CanRaise;
        public uint MinRaiseTo;
        public uint MaxRaiseTo;
        public uint ActionCount;
        public uint Reserved;
    }

#pragma warning disable 169
    [StructLayout(LayoutKind.Sequential, Size = 1024)] public struct HoldemActionsImage { uint first; }
    [StructLayout(LayoutKind.Sequential, Size = 2496)] public struct HoldemDealerStateImage { uint first; }
#pragma warning restore 169

    /// <summary>arbor_holdem_dealer: the ACPC reference dealer's card stream of a seeded
    /// match, held by value (copy it, save it to resume a match).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HoldemDealer
    {
        public uint Magic;
        public uint Version;
        /// <summary>Index of the generator's next state word (the C field `next`).</summary>
        public uint NextWord;
        public uint Reserved;
        /// <summary>Hands dealt so far: the number of the next hand.</summary>
        public ulong HandsDealt;
        HoldemDealerStateImage state;

        public static HoldemDealer Start(uint seed)
        {
            Library.CheckLayout();
            HoldemDealer dealer;
            Text.Check(Native.arbor_holdem_dealer_init(seed, out dealer), "arbor_holdem_dealer_init");
            return dealer;
        }

        /// <summary>The next hand's nine cards: position 0's two hole cards, position 1's two, the board.</summary>
        public byte[] NextHand()
        {
            byte[] cards = new byte[Constants.HoldemDealCards];
            Text.Check(Native.arbor_holdem_dealer_next(ref this, cards, (UIntPtr)cards.Length), "arbor_holdem_dealer_next");
            return cards;
        }
    }

    /// <summary>arbor_holdem_hand: one hand of heads-up no-limit Hold'em, held by value (copy
    /// it, save it). Every call replays it through the rules, so one changed by hand is
    /// refused, never misread; a call that throws leaves it unchanged.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HoldemHand
    {
        public uint Magic;
        public uint Version;
        public uint Stack0, Stack1;
        public uint BigBlind;
        public uint SmallBlind;
        public uint HandNumber;
        /// <summary>The position whose view this is, or Constants.HoldemNone.</summary>
        public uint Position;
        public uint ActionCount;
        /// <summary>Hole cards (two of position 0, two of position 1), Constants.HoldemNoCard unseen.</summary>
        public byte Hole0, Hole1, Hole2, Hole3;
        public byte Board0, Board1, Board2, Board3, Board4;
        public byte BoardLen;
        public byte Reserved0, Reserved1;
        HoldemActionsImage actions;

        /// <summary>A new hand, blinds posted (position 0 the big blind); the ACPC game by default.</summary>
        public static HoldemHand Start(uint stack0 = Constants.HoldemAcpcStack, uint stack1 = Constants.HoldemAcpcStack,
                                       uint bigBlind = Constants.HoldemAcpcBigBlind, uint smallBlind = Constants.HoldemAcpcSmallBlind)
        {
            Library.CheckLayout();
            HoldemHand hand;
            Text.Check(Native.arbor_holdem_hand_init(stack0, stack1, bigBlind, smallBlind, out hand), "arbor_holdem_hand_init");
            return hand;
        }

        /// <summary>Parses a MATCHSTATE line of a hand with the stacks and blinds of `rules`. Throws ArborParseException.</summary>
        public static HoldemHand ParseMatchstate(string text, HoldemHand rules)
        {
            byte[] bytes = Text.Utf8(text);
            HoldemHand hand;
            ParseError error;
            Status status = Native.arbor_holdem_matchstate_parse(bytes, (UIntPtr)bytes.Length, ref rules, out hand, out error);
            Text.CheckParse(status, error, "arbor_holdem_matchstate_parse");
            return hand;
        }

        /// <summary>The MATCHSTATE line a dealer sends `position`.</summary>
        public string FormatMatchstate(uint position)
        {
            HoldemHand self = this;
            return Text.Format("arbor_holdem_matchstate_format", delegate (byte[] buf, UIntPtr len, out UIntPtr outLen) {
                return Native.arbor_holdem_matchstate_format(ref self, position, buf, len, out outLen);
            });
        }

        public void DealHole(uint position, byte first, byte second)
        {
            Text.Check(Native.arbor_holdem_hand_deal_hole(ref this, position, new byte[] { first, second }, (UIntPtr)2), "arbor_holdem_hand_deal_hole");
        }

        public void DealBoard(byte card)
        {
            Text.Check(Native.arbor_holdem_hand_deal_board(ref this, card), "arbor_holdem_hand_deal_board");
        }

        /// <summary>Plays an action code (Constants.HoldemFold, HoldemCall, or a raise-to) for the position to act.</summary>
        public void Apply(uint action)
        {
            Text.Check(Native.arbor_holdem_hand_apply(ref this, action), "arbor_holdem_hand_apply");
        }

        public HoldemInfo Info()
        {
            HoldemInfo info;
            Text.Check(Native.arbor_holdem_hand_info(ref this, out info), "arbor_holdem_hand_info");
            return info;
        }

        /// <summary>Chips won by position 0 and 1 once the hand is over.</summary>
        public int[] Payoffs()
        {
            int[] payoffs = new int[2];
            Text.Check(Native.arbor_holdem_hand_payoffs(ref this, payoffs, (UIntPtr)payoffs.Length), "arbor_holdem_hand_payoffs");
            return payoffs;
        }

        /// <summary>The action of the bot `spec` ("call", "min-raise", "all-in", "random:seed=S",
        /// "equity:samples=N,seed=S") for the position to act. Throws ArborParseException for a bad spec.</summary>
        public uint BotAct(string spec)
        {
            byte[] bytes = Text.Utf8(spec);
            uint action;
            ParseError error;
            Status status = Native.arbor_holdem_bot_act(bytes, (UIntPtr)bytes.Length, ref this, out action, out error);
            Text.CheckParse(status, error, "arbor_holdem_bot_act");
            return action;
        }

        /// <summary>The ACPC text of an action code: "f", "c", "r300".</summary>
        public static string FormatAction(uint action)
        {
            return Text.Format("arbor_holdem_action_format", delegate (byte[] buf, UIntPtr len, out UIntPtr outLen) {
                return Native.arbor_holdem_action_format(action, buf, len, out outLen);
            });
        }
    }

    /// <summary>Breakthrough move text: "a2-a3", "b4xa3".</summary>
    public static class BreakthroughMove
    {
        /// <summary>Parses a move (text only; legality is Play's). Throws ArborParseException.</summary>
        public static ushort Parse(string text)
        {
            Library.CheckLayout();
            byte[] bytes = Text.Utf8(text);
            ushort mv;
            ParseError error;
            Status status = Native.arbor_breakthrough_move_parse(bytes, (UIntPtr)bytes.Length, out mv, out error);
            Text.CheckParse(status, error, "arbor_breakthrough_move_parse");
            return mv;
        }

        public static string Format(ushort move)
        {
            return Text.Format("arbor_breakthrough_move_format", delegate (byte[] buf, UIntPtr len, out UIntPtr outLen) {
                return Native.arbor_breakthrough_move_format(move, buf, len, out outLen);
            });
        }
    }

    // ---- Breakthrough solver -------------------------------------------------------------

    /// <summary>outcome of a solve (ARBOR_BREAKTHROUGH_SOLVE_*).</summary>
    public enum SolveOutcome : uint
    {
        BudgetSpent = 0,
        Win = 1,
        Loss = 2,
        TableFull = 3,
    }

    /// <summary>arbor_breakthrough_solve_result.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SolveResult
    {
        public ulong Expanded;
        public ulong Touched;
        public ulong PeakEntries;
        public ulong TableEntries;
        public SolveOutcome Outcome;
        /// <summary>A winning move for Win, else Constants.BreakthroughNoMove.</summary>
        public ushort BestMove;
        public ushort Reserved;

        public bool Decided { get { return Outcome == SolveOutcome.Win || Outcome == SolveOutcome.Loss; } }
    }

    /// <summary>The df-pn solver with its transposition table in unmanaged memory (sized by
    /// arbor_breakthrough_solve_bytes, aligned to Constants.BreakthroughSolveAlign). The table
    /// is scratch: reuse one solver for many solves. Dispose frees it.</summary>
    public sealed class BreakthroughSolver : IDisposable
    {
        readonly NativeBuffer table;

        /// <summary>`entries`: a power of two, at least 4 (2^20, 16 MiB, solve the 4x5 start).</summary>
        public BreakthroughSolver(long entries)
        {
            Library.CheckLayout();
            UIntPtr bytes;
            Text.Check(Native.arbor_breakthrough_solve_bytes((UIntPtr)(ulong)entries, out bytes), "arbor_breakthrough_solve_bytes");
            table = new NativeBuffer((long)bytes.ToUInt64(), Constants.BreakthroughSolveAlign);
        }

        public NativeBuffer Table { get { return table; } }

        /// <summary>Solves the position `text` in at most `maxExpansions` expansions;
        /// `options` 0 or Constants.BreakthroughSolvePatterns. Throws ArborParseException.
        /// Recursion: about 1 KiB of stack a ply (run deep boards on a thread with a large
        /// stack).</summary>
        public SolveResult Solve(string text, ulong maxExpansions = ulong.MaxValue, uint options = 0)
        {
            byte[] bytes = Text.Utf8(text);
            SolveResult result;
            ParseError error;
            using (new NativeBuffer.Lease(table))
            {
                Status status = Native.arbor_breakthrough_solve(bytes, (UIntPtr)bytes.Length, table.Pointer,
                    (UIntPtr)(ulong)table.Size, maxExpansions, options, out result, out error);
                Text.CheckParse(status, error, "arbor_breakthrough_solve");
            }
            return result;
        }

        public SolveResult Solve(Breakthrough position, ulong maxExpansions = ulong.MaxValue, uint options = 0)
        {
            return Solve(position.Format(), maxExpansions, options);
        }

        public void Dispose() { table.Dispose(); }
    }

    // ---- Breakthrough search handle ------------------------------------------------------

    /// <summary>arbor_breakthrough_search_config.policy.</summary>
    public enum SearchPolicy : uint
    {
        Uct = 0,
        Rave = 1,
        Mogo = 2,
    }

    /// <summary>arbor_breakthrough_search_config: fill with Default, change fields.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct BreakthroughSearchConfig
    {
        public uint Magic;
        public uint Version;
        public double C;
        public double C1;
        public double C2;
        public SearchPolicy Policy;
        /// <summary>1: MCTS-Solver on; 0: off.</summary>
        public uint Solver;
        public uint ExpandThreshold;
        /// <summary>Playout moves before a draw; Constants.BreakthroughSearchNoCutoff: none.</summary>
        public uint PlayoutCutoff;

        public static BreakthroughSearchConfig Default(SearchPolicy policy = SearchPolicy.Uct)
        {
            Library.CheckLayout();
            BreakthroughSearchConfig config;
            Text.Check(Native.arbor_breakthrough_search_default_config((uint)policy, out config), "arbor_breakthrough_search_default_config");
            return config;
        }
    }

    /// <summary>arbor_breakthrough_search_stats.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct BreakthroughSearchStats
    {
        public uint NodesUsed;
        public uint CapacityNodes;
        /// <summary>1 if a run on this root found no room to expand.</summary>
        public uint StorageFull;
        /// <summary>Constants.BreakthroughSearchProof*.</summary>
        public uint RootProof;
    }

    /// <summary>The anytime, cancellable Breakthrough MCTS (arbor_breakthrough_search_*): owns
    /// its handle buffer in unmanaged memory (NativeBuffer), freed by Dispose.</summary>
    /// <remarks>Threads: Cancel may be called from any thread while Run is in progress on
    /// another; the other members must not overlap each other. Every call holds a reference
    /// on the buffer (NativeBuffer.Lease), so a Dispose racing a Run or a Cancel frees the
    /// memory only after that call returns, and a call after Dispose throws
    /// ObjectDisposedException: nothing touches freed memory.</remarks>
    public sealed class BreakthroughSearch : IDisposable
    {
        readonly NativeBuffer buffer;
        readonly UIntPtr length;

        /// <summary>A search of `position` whose tree holds `capacityNodes` nodes per thread
        /// for runs of up to `threads` threads (about 27 nodes an iteration from the 8x8
        /// start rarely fills; NodesForIterations is the bound), all randomness from `seed`,
        /// with `config` (null: the UCT defaults).</summary>
        public BreakthroughSearch(Breakthrough position, uint capacityNodes, ulong seed,
                                  BreakthroughSearchConfig? config = null, uint threads = 1)
        {
            Library.CheckLayout();
            BreakthroughSearchConfig settings = config ?? BreakthroughSearchConfig.Default(SearchPolicy.Uct);
            UIntPtr bytes;
            Text.Check(Native.arbor_breakthrough_search_bytes(capacityNodes, threads, out bytes), "arbor_breakthrough_search_bytes");
            buffer = new NativeBuffer((long)bytes.ToUInt64(), Constants.BreakthroughSearchAlign);
            length = bytes;
            Status status = Native.arbor_breakthrough_search_init(buffer.Pointer, length, ref settings, ref position, seed);
            if (status != Status.Ok)
            {
                buffer.Dispose();
                throw new ArborException(status, "arbor_breakthrough_search_init");
            }
        }

        public NativeBuffer Buffer { get { return buffer; } }

        /// <summary>Grows the tree until `limits` or a Cancel stop it, on `threads` threads
        /// (1 to MaxThreads; more than 1 restarts the tree). On one thread, k runs of n
        /// iterations equal one run of k·n.</summary>
        public SearchProgress Run(SearchLimits limits, uint threads = 1)
        {
            SearchProgress progress;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_breakthrough_search_run(buffer.Pointer, length, ref limits, threads, out progress), "arbor_breakthrough_search_run");
            return progress;
        }

        /// <summary>Asks a Run in progress (on any thread) to stop within one iteration, with
        /// StopReason.Cancelled; without one, the next Run stops at once. Thread-safe.</summary>
        public void Cancel()
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_breakthrough_search_cancel(buffer.Pointer, length), "arbor_breakthrough_search_cancel");
        }

        /// <summary>Advances the root by `move` (either side's), keeping its subtree.</summary>
        public void Play(ushort move)
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_breakthrough_search_play(buffer.Pointer, length, move), "arbor_breakthrough_search_play");
        }

        /// <summary>The progress of the last run on this root, without searching.</summary>
        public SearchProgress Best()
        {
            SearchProgress progress;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_breakthrough_search_best(buffer.Pointer, length, out progress), "arbor_breakthrough_search_best");
            return progress;
        }

        public BreakthroughSearchStats TreeStats()
        {
            BreakthroughSearchStats stats;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_breakthrough_search_tree_stats(buffer.Pointer, length, out stats), "arbor_breakthrough_search_tree_stats");
            return stats;
        }

        /// <summary>The most threads a Run accepts in this build (1 without std).</summary>
        public static uint MaxThreads { get { return Native.arbor_breakthrough_search_max_threads(); } }

        /// <summary>Nodes that `iterations` iterations from a fresh root never exceed.</summary>
        public static uint NodesForIterations(Breakthrough position, uint iterations)
        {
            uint nodes;
            Text.Check(Native.arbor_breakthrough_search_nodes_for_iterations(ref position, iterations, out nodes), "arbor_breakthrough_search_nodes_for_iterations");
            return nodes;
        }

        public void Dispose() { buffer.Dispose(); }
    }

    // ---- Go ------------------------------------------------------------------------------

    /// <summary>arbor_go_info: a game's state.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct GoInfo
    {
        public uint Size;
        /// <summary>Constants.GoBlack or GoWhite.</summary>
        public uint ToMove;
        /// <summary>Moves played since the start position (passes included).</summary>
        public uint Moves;
        public uint Passes;
        /// <summary>White stones Black has captured.</summary>
        public uint CapturesBlack;
        /// <summary>Black stones White has captured.</summary>
        public uint CapturesWhite;
        public uint StonesBlack;
        public uint StonesWhite;
        /// <summary>The simple-ko point, or Constants.GoNone.</summary>
        public uint Ko;
        /// <summary>The last move, or Constants.GoNone.</summary>
        public uint LastMove;
        public uint Over;
        public uint Reserved;
        public double Komi;
    }

    /// <summary>arbor_go_score: an area score, every stone alive.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct GoScore
    {
        public uint Black;
        public uint White;
        /// <summary>Constants.GoBlack, GoWhite, or GoEmpty for a draw.</summary>
        public uint Winner;
        public uint Reserved;
        public double Komi;
        /// <summary>Black's lead: Black - White - Komi.</summary>
        public double Margin;
    }

    /// <summary>arbor_go_search_stats: what a search handle's tree holds.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct GoSearchStats
    {
        public uint NodesUsed;
        public uint CapacityNodes;
        public uint StorageFull;
        public uint Reserved;
    }

    /// <summary>arbor_go_decision: what the player to move should do (GTP genmove's
    /// judgement of a search handle's tree).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct GoDecision
    {
        /// <summary>The move to play (a code or Constants.GoPass).</summary>
        public uint MoveToPlay;
        /// <summary>1 to resign (and play nothing).</summary>
        public uint Resign;
        /// <summary>1 if the search's own move was replaced.</summary>
        public uint Judged;
        /// <summary>The search's own move, or Constants.SearchNoMove.</summary>
        public uint SearchMove;
        public double WinRate;
    }

    /// <summary>GTP moves ("D4", "pass") and their codes (row * size + col, or GoPass).</summary>
    public static class GoMove
    {
        public static uint Parse(uint size, string text)
        {
            byte[] bytes = Text.Utf8(text);
            uint mv;
            ParseError error;
            Status status = Native.arbor_go_move_parse(size, bytes, (UIntPtr)bytes.Length, out mv, out error);
            Text.CheckParse(status, error, "arbor_go_move_parse");
            return mv;
        }

        public static string Format(uint size, uint mv)
        {
            return Text.Format("arbor_go_move_format", (byte[] buf, UIntPtr len, out UIntPtr outLen) =>
                Native.arbor_go_move_format(size, mv, buf, len, out outLen));
        }
    }

    /// <summary>A Go game in its caller buffer (arbor_go_game_*). A refused move throws and
    /// changes nothing; Check says why.</summary>
    public sealed class GoGame : IDisposable
    {
        readonly NativeBuffer buffer;
        readonly UIntPtr length;

        /// <summary>An empty `size` board, Black to move, `komi` for White; the buffer holds
        /// any game up to `capacitySize` (from SGF), at least `size`.</summary>
        public GoGame(uint size = 19, double komi = 7.5, uint capacitySize = 0)
        {
            Library.CheckLayout();
            UIntPtr bytes;
            Text.Check(Native.arbor_go_game_bytes(Math.Max(size, capacitySize), out bytes), "arbor_go_game_bytes");
            buffer = new NativeBuffer((long)bytes.ToUInt64(), Constants.GoGameAlign);
            length = bytes;
            Status status = Native.arbor_go_game_init(buffer.Pointer, length, size, komi);
            if (status != Status.Ok)
            {
                buffer.Dispose();
                throw new ArborException(status, "arbor_go_game_init");
            }
        }

        public NativeBuffer Buffer { get { return buffer; } }
        internal UIntPtr Length { get { return length; } }

        public void SetKomi(double komi)
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_set_komi(buffer.Pointer, length, komi), "arbor_go_game_set_komi");
        }

        public void Play(uint mv)
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_play(buffer.Pointer, length, mv), "arbor_go_game_play");
        }

        /// <summary>Plays a GTP move ("D4", "pass").</summary>
        public void Play(string gtp) { Play(GoMove.Parse(Info().Size, gtp)); }

        /// <summary>Constants.GoLegal, or why not (GoOccupied, GoSuicide, GoKo, ...).</summary>
        public uint Check(uint mv)
        {
            uint reason;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_check(buffer.Pointer, length, mv, out reason), "arbor_go_game_check");
            return reason;
        }

        public uint[] LegalMoves()
        {
            uint[] moves = new uint[Constants.GoMaxMoves];
            UIntPtr count;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_legal_moves(buffer.Pointer, length, moves, (UIntPtr)moves.Length, out count), "arbor_go_game_legal_moves");
            Array.Resize(ref moves, (int)count.ToUInt64());
            return moves;
        }

        /// <summary>The points in code order: GoEmpty, GoBlack or GoWhite.</summary>
        public byte[] Board()
        {
            byte[] points = new byte[Constants.GoMaxPoints];
            UIntPtr count;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_board(buffer.Pointer, length, points, (UIntPtr)points.Length, out count), "arbor_go_game_board");
            Array.Resize(ref points, (int)count.ToUInt64());
            return points;
        }

        public GoInfo Info()
        {
            GoInfo info;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_info(buffer.Pointer, length, out info), "arbor_go_game_info");
            return info;
        }

        public void Undo()
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_undo(buffer.Pointer, length), "arbor_go_game_undo");
        }

        public GoScore Score()
        {
            GoScore score;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_score(buffer.Pointer, length, out score), "arbor_go_game_score");
            return score;
        }

        /// <summary>The final area score (GTP final_score): dead stones removed, seki stones
        /// counted and their shared liberties not, judged from playouts drawn with `seed`.</summary>
        public GoScore FinalScore(ulong seed = 1)
        {
            GoScore score;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_final_score(buffer.Pointer, length, seed, out score), "arbor_go_game_final_score");
            return score;
        }

        /// <summary>The status of every point in code order (Constants.GoStatusEmpty, Alive,
        /// Dead, Seki), judged as FinalScore(seed) judges it.</summary>
        public byte[] FinalStatus(ulong seed = 1)
        {
            byte[] status = new byte[Constants.GoMaxPoints];
            UIntPtr count;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_game_final_status(buffer.Pointer, length, seed, status, (UIntPtr)status.Length, out count), "arbor_go_game_final_status");
            Array.Resize(ref status, (int)count.ToUInt64());
            return status;
        }

        /// <summary>The board diagram.</summary>
        public string Format()
        {
            using (new NativeBuffer.Lease(buffer))
                return Text.Format("arbor_go_game_format", (byte[] buf, UIntPtr len, out UIntPtr outLen) =>
                    Native.arbor_go_game_format(buffer.Pointer, length, buf, len, out outLen));
        }

        /// <summary>Replaces the game by the SGF one (ArborParseException: unchanged).</summary>
        public void SgfParse(string text)
        {
            byte[] bytes = Text.Utf8(text);
            ParseError error;
            Status status;
            using (new NativeBuffer.Lease(buffer))
                status = Native.arbor_go_game_sgf_parse(buffer.Pointer, length, bytes, (UIntPtr)bytes.Length, out error);
            Text.CheckParse(status, error, "arbor_go_game_sgf_parse");
        }

        public string SgfFormat()
        {
            using (new NativeBuffer.Lease(buffer))
                return Text.Format("arbor_go_game_sgf_format", (byte[] buf, UIntPtr len, out UIntPtr outLen) =>
                    Native.arbor_go_game_sgf_format(buffer.Pointer, length, buf, len, out outLen));
        }

        public void Dispose() { buffer.Dispose(); }
    }

    /// <summary>arbor_go_search_init's player.</summary>
    public enum GoPlayer : uint { Light = 0, Mogo = 1 }

    /// <summary>The anytime, cancellable Go search (arbor_go_search_*): a copy of a game and
    /// its tree. Cancel may be called from any thread during a Run.</summary>
    public sealed class GoSearch : IDisposable
    {
        readonly NativeBuffer buffer;
        readonly UIntPtr length;

        public GoSearch(GoGame game, uint capacityNodes, ulong seed, GoPlayer player = GoPlayer.Mogo, uint threads = 1)
        {
            Library.CheckLayout();
            UIntPtr bytes;
            Text.Check(Native.arbor_go_search_bytes(game.Info().Size, capacityNodes, threads, out bytes), "arbor_go_search_bytes");
            buffer = new NativeBuffer((long)bytes.ToUInt64(), Constants.GoSearchAlign);
            length = bytes;
            Status status;
            using (new NativeBuffer.Lease(game.Buffer))
                status = Native.arbor_go_search_init(buffer.Pointer, length, game.Buffer.Pointer, game.Length, (uint)player, seed);
            if (status != Status.Ok)
            {
                buffer.Dispose();
                throw new ArborException(status, "arbor_go_search_init");
            }
        }

        /// <summary>Grows the tree until `limits` or a Cancel stop it; k runs of n iterations
        /// on one thread equal one run of k·n. BestMove is a move code.</summary>
        public SearchProgress Run(SearchLimits limits, uint threads = 1)
        {
            SearchProgress progress;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_search_run(buffer.Pointer, length, ref limits, threads, out progress), "arbor_go_search_run");
            return progress;
        }

        public void Cancel()
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_search_cancel(buffer.Pointer, length), "arbor_go_search_cancel");
        }

        /// <summary>What the player to move should do now: GTP genmove's judgement of the
        /// tree (the move, or a resignation). Changes nothing.</summary>
        public GoDecision Decide()
        {
            GoDecision decision;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_search_decide(buffer.Pointer, length, out decision), "arbor_go_search_decide");
            return decision;
        }

        /// <summary>Plays `mv` for the player to move, keeping its subtree (a stone after two
        /// passes resumes the game).</summary>
        public void Play(uint mv)
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_search_play(buffer.Pointer, length, mv), "arbor_go_search_play");
        }

        /// <summary>Copies the handle's game into `game`.</summary>
        public void CopyGame(GoGame game)
        {
            using (new NativeBuffer.Lease(buffer))
            using (new NativeBuffer.Lease(game.Buffer))
                Text.Check(Native.arbor_go_search_game(buffer.Pointer, length, game.Buffer.Pointer, game.Length), "arbor_go_search_game");
        }

        public GoSearchStats TreeStats()
        {
            GoSearchStats stats;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_go_search_tree_stats(buffer.Pointer, length, out stats), "arbor_go_search_tree_stats");
            return stats;
        }

        public void Dispose() { buffer.Dispose(); }
    }

    /// <summary>A Hold'em bot kept in a handle buffer (arbor_holdem_bot_*): made once from a
    /// spec and a seed (the seed replaces a "seed=" of the spec), asked for decisions, told
    /// when hands end. Cancel may be called from another thread during Decide.</summary>
    public sealed class HoldemBot : IDisposable
    {
        readonly NativeBuffer buffer;
        readonly UIntPtr length;

        /// <summary>Throws ArborParseException for a bad spec.</summary>
        public HoldemBot(string spec, ulong seed)
        {
            Library.CheckLayout();
            UIntPtr bytes;
            Text.Check(Native.arbor_holdem_bot_bytes(out bytes), "arbor_holdem_bot_bytes");
            buffer = new NativeBuffer((long)bytes.ToUInt64(), Constants.HoldemBotAlign);
            length = bytes;
            byte[] text = Text.Utf8(spec);
            ParseError error;
            Status status;
            using (new NativeBuffer.Lease(buffer))
                status = Native.arbor_holdem_bot_init(buffer.Pointer, length, text, (UIntPtr)text.Length, seed, out error);
            if (status != Status.Ok)
            {
                buffer.Dispose();
                Text.CheckParse(status, error, "arbor_holdem_bot_init");
            }
        }

        /// <summary>The action for the position to act in `hand`; progress.BestMove is the
        /// action, progress.StopReason Done, or Cancelled/Deadline when the call answered at
        /// once with the cheapest legal action.</summary>
        public uint Decide(HoldemHand hand, SearchLimits limits, out SearchProgress progress)
        {
            uint action;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_holdem_bot_decide(buffer.Pointer, length, ref hand, ref limits, out action, out progress), "arbor_holdem_bot_decide");
            return action;
        }

        /// <summary>Tells the bot that `hand` (over) ended, seen as `position`.</summary>
        public void HandOver(HoldemHand hand, uint position)
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_holdem_bot_hand_over(buffer.Pointer, length, ref hand, position), "arbor_holdem_bot_hand_over");
        }

        public void Cancel()
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_holdem_bot_cancel(buffer.Pointer, length), "arbor_holdem_bot_cancel");
        }

        public void Dispose() { buffer.Dispose(); }
    }

    // ---- Match-3 -------------------------------------------------------------------------
    //
    // The structs' private images are opaque byte runs. C# cannot declare an inline byte
    // array without `unsafe` (`fixed`) or a marshalled copy (ByValArray, not blittable), so
    // each run is a struct of one byte with StructLayout.Size: blittable, of the C size,
    // pinned and passed like the rest.
#pragma warning disable 169
    [StructLayout(LayoutKind.Sequential, Size = 1700)] public struct Match3LevelImage { byte first; }
    [StructLayout(LayoutKind.Sequential, Size = 255)] public struct Match3RecordImage { byte first; }
    [StructLayout(LayoutKind.Sequential, Size = 322)] public struct Match3FormulaImage { byte first; }
    [StructLayout(LayoutKind.Sequential, Size = 5)] public struct Reserved5 { byte first; }
    [StructLayout(LayoutKind.Sequential, Size = 2)] public struct Reserved2 { byte first; }
#pragma warning restore 169

    /// <summary>Six doubles: an array of the playtest report, one per agent (index 0..5).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Doubles6
    {
        public double A0, A1, A2, A3, A4, A5;
        public double this[int i]
        {
            get
            {
                switch (i)
                {
                    case 0: return A0; case 1: return A1; case 2: return A2;
                    case 3: return A3; case 4: return A4; case 5: return A5;
                    default: throw new IndexOutOfRangeException();
                }
            }
        }
    }

    /// <summary>Six uints: an array of the playtest report, one per agent (index 0..5).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct UInts6
    {
        public uint A0, A1, A2, A3, A4, A5;
        public uint this[int i]
        {
            get
            {
                switch (i)
                {
                    case 0: return A0; case 1: return A1; case 2: return A2;
                    case 3: return A3; case 4: return A4; case 5: return A5;
                    default: throw new IndexOutOfRangeException();
                }
            }
        }
    }

    /// <summary>What an agent's search rewards.</summary>
    public enum Match3Goal : uint
    {
        MaxS = 0,
        MinS = 1,
        MaxM = 2,
        MinM = 3,
    }

    /// <summary>arbor_match3_level: a parsed level, 1,708 bytes, a value (its image is private).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Match3Level
    {
        public uint Magic;
        public uint Version;
        public Match3LevelImage Opaque;

        /// <summary>Parses a level file (docs/match3.md). Throws ArborParseException (line 0
        /// when no single line is at fault, column 0 when the whole line is).</summary>
        public static Match3Level Parse(string text)
        {
            Library.CheckLayout();
            byte[] bytes = Text.Utf8(text);
            Match3Level level;
            ParseError error;
            Status status = Native.arbor_match3_level_parse(bytes, (UIntPtr)bytes.Length, out level, out error);
            Text.CheckParse(status, error, "arbor_match3_level_parse");
            return level;
        }

        /// <summary>Bundled preset 0, 1 or 2 (board1 … board3).</summary>
        public static Match3Level Preset(uint index)
        {
            Library.CheckLayout();
            Match3Level level;
            Text.Check(Native.arbor_match3_level_preset(index, out level), "arbor_match3_level_preset");
            return level;
        }

        /// <summary>Bytes of a tree that `iterations` iterations of a one-shot agent never fill.</summary>
        public long TreeBytes(uint iterations)
        {
            UIntPtr bytes;
            Text.Check(Native.arbor_match3_tree_bytes(ref this, iterations, out bytes), "arbor_match3_tree_bytes");
            return (long)bytes.ToUInt64();
        }

        /// <summary>A tree buffer for Match3Game.AgentMove, aligned (dispose it).</summary>
        public NativeBuffer TreeBuffer(uint iterations)
        {
            return new NativeBuffer(TreeBytes(iterations), Constants.Match3TreeAlign);
        }
    }

    /// <summary>arbor_match3_outcome: what one move did.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Match3Outcome
    {
        public uint Points;
        public uint Combos;
        public uint Reshuffled;
        public uint LegalBefore;
    }

    /// <summary>arbor_match3_metrics: a game so far.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Match3Metrics
    {
        public double AverageAvailable;
        public uint Score;
        public uint Moves;
        public uint MoveLimit;
        public uint Combos;
        public uint Reshuffles;
        public uint LegalSum;
        public uint LegalNow;
        public uint GameOver;
    }

    /// <summary>arbor_match3_game: a game, 1,984 bytes, a value (the level, the chance seed
    /// and the moves played; copy it, save it). Moves are byte codes.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Match3Game
    {
        public uint Magic;
        public uint Version;
        public ulong Seed;
        public uint Played;
        public uint Reserved;
        public Match3LevelImage Level;
        public Match3RecordImage Record;
        public Reserved5 ReservedEnd;

        /// <summary>A game of `level` with chance seed `seed`.</summary>
        public static Match3Game Start(Match3Level level, ulong seed)
        {
            Library.CheckLayout();
            Match3Game game;
            Text.Check(Native.arbor_match3_game_start(ref level, seed, out game), "arbor_match3_game_start");
            return game;
        }

        /// <summary>The legal move codes, increasing (none once the game is over).</summary>
        public byte[] LegalMoves()
        {
            byte[] moves = new byte[Constants.Match3MaxMoves];
            UIntPtr count;
            Text.Check(Native.arbor_match3_legal_moves(ref this, moves, (UIntPtr)moves.Length, out count), "arbor_match3_legal_moves");
            Array.Resize(ref moves, (int)count.ToUInt64());
            return moves;
        }

        /// <summary>Plays `code` in place; throws (IllegalMove, GameOver) and is then unchanged.</summary>
        public Match3Outcome Play(byte code)
        {
            Match3Outcome outcome;
            Text.Check(Native.arbor_match3_play(ref this, code, out outcome), "arbor_match3_play");
            return outcome;
        }

        public Match3Metrics Metrics()
        {
            Match3Metrics metrics;
            Text.Check(Native.arbor_match3_game_metrics(ref this, out metrics), "arbor_match3_game_metrics");
            return metrics;
        }

        public bool IsOver { get { return Metrics().GameOver != 0; } }

        /// <summary>The move `agent` chooses after `iterations` iterations, its generator
        /// seeded with `seed`, its tree in `tree` (Match3Level.TreeBuffer; null for Random).</summary>
        public byte AgentMove(Match3Agent agent, uint iterations, ulong seed, NativeBuffer tree)
        {
            byte code;
            byte[] formula = agent.Formula;
            using (new NativeBuffer.Lease(tree))
            {
                Text.Check(Native.arbor_match3_agent_move(ref this, agent.Kind, (uint)agent.Goal, formula,
                    (UIntPtr)(formula == null ? 0 : formula.Length), iterations, seed,
                    tree == null ? IntPtr.Zero : tree.Pointer, (UIntPtr)(ulong)(tree == null ? 0 : tree.Size), out code), "arbor_match3_agent_move");
            }
            return code;
        }
    }

    /// <summary>Match-3 move text ("d4-d5") and formulas.</summary>
    public static class Match3Text
    {
        /// <summary>Parses a move (shape only). Throws ArborParseException.</summary>
        public static byte ParseMove(string text)
        {
            Library.CheckLayout();
            byte[] bytes = Text.Utf8(text);
            byte code;
            ParseError error;
            Status status = Native.arbor_match3_move_parse(bytes, (UIntPtr)bytes.Length, out code, out error);
            Text.CheckParse(status, error, "arbor_match3_move_parse");
            return code;
        }

        public static string FormatMove(byte code)
        {
            return Text.Format("arbor_match3_move_format", delegate (byte[] buf, UIntPtr len, out UIntPtr outLen) {
                return Native.arbor_match3_move_format(code, buf, len, out outLen);
            });
        }

        /// <summary>Compiles a persona formula ("add(div(W, N), mul(0.5, sqrt(div(NP, N))))")
        /// into its binary form. Throws ArborParseException, or InvalidLength past 64 terms.</summary>
        public static byte[] ParseFormula(string text)
        {
            Library.CheckLayout();
            byte[] bytes = Text.Utf8(text);
            byte[] formula = new byte[Constants.Match3FormulaMaxBytes];
            UIntPtr length;
            ParseError error;
            Status status = Native.arbor_match3_formula_parse(bytes, (UIntPtr)bytes.Length, formula, (UIntPtr)formula.Length, out length, out error);
            Text.CheckParse(status, error, "arbor_match3_formula_parse");
            Array.Resize(ref formula, (int)length.ToUInt64());
            return formula;
        }
    }

    /// <summary>arbor_match3_persona: a goal and a formula in binary form, 340 bytes, a value.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Match3Persona
    {
        public uint Magic;
        public uint Version;
        public Match3Goal Goal;
        public uint FormulaLen;
        public Match3FormulaImage FormulaImage;
        public Reserved2 Reserved;

        /// <summary>Parses a persona file (goal, formula and/or bytecode lines).</summary>
        public static Match3Persona Parse(string text)
        {
            Library.CheckLayout();
            byte[] bytes = Text.Utf8(text);
            Match3Persona persona;
            ParseError error;
            Status status = Native.arbor_match3_persona_parse(bytes, (UIntPtr)bytes.Length, out persona, out error);
            Text.CheckParse(status, error, "arbor_match3_persona_parse");
            return persona;
        }

        /// <summary>Bundled persona 0 MaxS, 1 MinS, 2 MaxM, 3 MinM.</summary>
        public static Match3Persona Shipped(uint index)
        {
            Library.CheckLayout();
            Match3Persona persona;
            Text.Check(Native.arbor_match3_persona_shipped(index, out persona), "arbor_match3_persona_shipped");
            return persona;
        }

        /// <summary>A copy of the formula's FormulaLen bytes (read through a pinned copy of
        /// the struct, which is blittable).</summary>
        public byte[] Formula()
        {
            int length = (int)Math.Min(FormulaLen, (uint)Constants.Match3FormulaMaxBytes);
            byte[] formula = new byte[length];
            object boxed = this;
            GCHandle pin = GCHandle.Alloc(boxed, GCHandleType.Pinned);
            try
            {
                // FormulaImage follows four uint fields (no reflection: IL2CPP strips names).
                IntPtr start = IntPtr.Add(pin.AddrOfPinnedObject(), 16);
                Marshal.Copy(start, formula, 0, length);
            }
            finally
            {
                pin.Free();
            }
            return formula;
        }
    }

    /// <summary>Who chooses the moves: Random, Vanilla MCTS with a goal, or a Persona (a goal
    /// and a formula, copied).</summary>
    public sealed class Match3Agent
    {
        public const uint RandomKind = 0;   // ARBOR_MATCH3_AGENT_RANDOM
        public const uint VanillaKind = 1;  // ARBOR_MATCH3_AGENT_VANILLA
        public const uint PersonaKind = 2;  // ARBOR_MATCH3_AGENT_PERSONA

        public uint Kind { get; private set; }
        public Match3Goal Goal { get; private set; }
        /// <summary>The binary formula (Persona), else null.</summary>
        public byte[] Formula { get; private set; }

        Match3Agent(uint kind, Match3Goal goal, byte[] formula) { Kind = kind; Goal = goal; Formula = formula; }

        public static Match3Agent Random() { return new Match3Agent(RandomKind, Match3Goal.MaxS, null); }
        public static Match3Agent Vanilla(Match3Goal goal = Match3Goal.MaxS) { return new Match3Agent(VanillaKind, goal, null); }
        public static Match3Agent Persona(Match3Persona persona) { return new Match3Agent(PersonaKind, persona.Goal, persona.Formula()); }
        public static Match3Agent Persona(Match3Goal goal, byte[] formula) { return new Match3Agent(PersonaKind, goal, (byte[])formula.Clone()); }
    }

    /// <summary>The anytime Match-3 agent search (arbor_match3_search_*): owns its handle
    /// buffer (NativeBuffer), freed by Dispose. Threads as BreakthroughSearch: Cancel from
    /// any thread during a Run; a racing Dispose waits for the call (SafeHandle).</summary>
    public sealed class Match3Search : IDisposable
    {
        readonly NativeBuffer buffer;
        readonly UIntPtr length;

        /// <summary>A search for `agent` in `game` (a game of `level`), sized so that
        /// `iterations` iterations since the start or the last Play never fill the tree.</summary>
        public Match3Search(Match3Level level, Match3Game game, Match3Agent agent, uint iterations, ulong seed)
        {
            Library.CheckLayout();
            UIntPtr bytes;
            Text.Check(Native.arbor_match3_search_bytes(ref level, iterations, out bytes), "arbor_match3_search_bytes");
            buffer = new NativeBuffer((long)bytes.ToUInt64(), Constants.Match3SearchAlign);
            length = bytes;
            byte[] formula = agent.Formula;
            Status status = Native.arbor_match3_search_init(buffer.Pointer, length, ref game, agent.Kind, (uint)agent.Goal,
                formula, (UIntPtr)(formula == null ? 0 : formula.Length), seed);
            if (status != Status.Ok)
            {
                buffer.Dispose();
                throw new ArborException(status, "arbor_match3_search_init");
            }
        }

        public NativeBuffer Buffer { get { return buffer; } }

        /// <summary>Searches on until `limits` or a Cancel stop it (Random: Done at once).
        /// k runs of n iterations choose the move of one run of k·n.</summary>
        public SearchProgress Run(SearchLimits limits)
        {
            SearchProgress progress;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_match3_search_run(buffer.Pointer, length, ref limits, out progress), "arbor_match3_search_run");
            return progress;
        }

        /// <summary>Stops a Run in progress on another thread within one iteration (or the
        /// next Run at once). Thread-safe.</summary>
        public void Cancel()
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_match3_search_cancel(buffer.Pointer, length), "arbor_match3_search_cancel");
        }

        /// <summary>Plays `code` in the handle's game, keeping its subtree.</summary>
        public void Play(byte code)
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_match3_search_play(buffer.Pointer, length, code), "arbor_match3_search_play");
        }

        /// <summary>The handle's game, with the moves played through Play.</summary>
        public Match3Game Game()
        {
            Match3Game game;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_match3_search_game(buffer.Pointer, length, out game), "arbor_match3_search_game");
            return game;
        }

        public void Dispose() { buffer.Dispose(); }
    }

    /// <summary>arbor_match3_playtest_report: per agent (MaxS, MinS, MaxM, MinM, Vanilla,
    /// Random: Match3Playtest.AgentName), one entry of each array.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Match3PlaytestReport
    {
        public Doubles6 MeanScore;
        public Doubles6 MeanAvailable;
        public UInts6 Games;
        public UInts6 MinScore;
        public UInts6 MaxScore;
    }

    /// <summary>arbor_match3_playtest_progress.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Match3PlaytestProgress
    {
        public uint GamesDone;
        public uint GamesTotal;
        /// <summary>Step (a game played), Cancelled (given up; the next step replays it) or Done.</summary>
        public StopReason StopReason;
        public uint Reserved;
    }

    /// <summary>The paper's Table II on a level: one call (Run), or in steps of one game
    /// that can be cancelled (an instance, owning its handle buffer; Dispose frees it;
    /// Cancel from any thread during a Step).</summary>
    public sealed class Match3Playtest : IDisposable
    {
        readonly NativeBuffer buffer;
        readonly UIntPtr length;

        /// <summary>The name of agent `index` (0..5), the order of the report's arrays.</summary>
        public static string AgentName(uint index)
        {
            return Text.Format("arbor_match3_playtest_agent_format", delegate (byte[] buf, UIntPtr len, out UIntPtr outLen) {
                return Native.arbor_match3_playtest_agent_format(index, buf, len, out outLen);
            });
        }

        /// <summary>`games` games for each of the six agents, `iterations` per move, on the
        /// calling thread.</summary>
        public static Match3PlaytestReport Run(Match3Level level, uint games, ulong seed, uint iterations)
        {
            Match3PlaytestReport report;
            using (NativeBuffer tree = level.TreeBuffer(iterations))
            {
                Text.Check(Native.arbor_match3_playtest(ref level, games, seed, iterations, tree.Pointer, (UIntPtr)(ulong)tree.Size, out report), "arbor_match3_playtest");
            }
            return report;
        }

        public Match3Playtest(Match3Level level, uint games, ulong seed, uint iterations)
        {
            Library.CheckLayout();
            UIntPtr bytes;
            Text.Check(Native.arbor_match3_playtest_bytes(ref level, iterations, out bytes), "arbor_match3_playtest_bytes");
            buffer = new NativeBuffer((long)bytes.ToUInt64(), Constants.Match3PlaytestAlign);
            length = bytes;
            Status status = Native.arbor_match3_playtest_init(buffer.Pointer, length, ref level, games, seed, iterations);
            if (status != Status.Ok)
            {
                buffer.Dispose();
                throw new ArborException(status, "arbor_match3_playtest_init");
            }
        }

        /// <summary>Plays the next game.</summary>
        public Match3PlaytestProgress Step()
        {
            Match3PlaytestProgress progress;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_match3_playtest_step(buffer.Pointer, length, out progress), "arbor_match3_playtest_step");
            return progress;
        }

        /// <summary>Makes a Step in progress on another thread give its game up. Thread-safe.</summary>
        public void Cancel()
        {
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_match3_playtest_cancel(buffer.Pointer, length), "arbor_match3_playtest_cancel");
        }

        /// <summary>The report of the games played so far (Run's, once all are).</summary>
        public Match3PlaytestReport Result()
        {
            Match3PlaytestReport report;
            using (new NativeBuffer.Lease(buffer))
                Text.Check(Native.arbor_match3_playtest_result(buffer.Pointer, length, out report), "arbor_match3_playtest_result");
            return report;
        }

        public void Dispose() { buffer.Dispose(); }
    }
}
