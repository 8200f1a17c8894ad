%% Per-key rate limits kept mochiglobal's way: set_limit/2 builds a module
%% at run time (abstract forms, compile:forms, code:load_binary) whose limit/0
%% returns the key's limit, and hit/1 asks it before counting the hit in a
%% public table. Until a limit is set, hit/1 fails at the call into the
%% missing module: the race (two hits read the same count and both write
%% it back, one hit is lost) is only reached through the generated module.
%% Expected: R002 confirmed (non_serializable) twice (the first hit and a later
%% one), in the harness variant that sets the limit first, as the program does.
-module(rate_limits).
-export([new/0, set_limit/2, hit/1, hits/1, test/0]).

new() ->
    ets:new(rate_hits, [named_table, public]),
    ok.

limit_module(Key) ->
    list_to_atom("rate_limits:" ++ atom_to_list(Key)).

set_limit(Key, Limit) ->
    Mod = limit_module(Key),
    Forms = [{attribute, 1, module, Mod},
             {attribute, 1, export, [{limit, 0}]},
             {function, 1, limit, 0, [{clause, 1, [], [], [{integer, 1, Limit}]}]}],
    {ok, Mod, Bin} = compile:forms(Forms, []),
    code:purge(Mod),
    {module, Mod} = code:load_binary(Mod, atom_to_list(Mod) ++ ".erl", Bin),
    ok.

hit(Key) ->
    Limit = (limit_module(Key)):limit(),
    case ets:lookup(rate_hits, Key) of
%%       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 #2 read: table rate_hits (confirmed, non_serializable)
        [{Key, N}] when N >= Limit ->
            {error, limited};
        [{Key, N}] ->
            ets:insert(rate_hits, {Key, N + 1}),
%%          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: a hit is lost
            ok;
        [] ->
            ets:insert(rate_hits, {Key, 1}),
%%          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #2 write: two first hits both store 1
            ok
    end.

hits(Key) ->
    case ets:lookup(rate_hits, Key) of
        [{Key, N}] -> N;
        [] -> 0
    end.

test() ->
    ok = new(),
    ok = set_limit(api, 5),
    ok = hit(api),
    ok = hit(api),
    2 = hits(api),
    ok.
