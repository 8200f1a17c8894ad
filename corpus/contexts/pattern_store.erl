%% Saved match patterns, numbered: save/1 given a number looks a saved
%% pattern up; given a list it stores the list under the next number (the
%% last key plus one). The first clause wants an integer, so the value a
%% harness takes from it never reaches the store; a trial run of the other
%% shapes finds that a list does, and two saves then take the same number.
%% Expected: R002 confirmed, non_serializable, argument 1 a list.
-module(pattern_store).
-export([start/0, save/1, test/0]).

start() ->
    ets:new(pattern_store, [named_table, public, ordered_set]),
    ok.

save(N) when is_integer(N) ->
    case ets:lookup(pattern_store, N) of
        [{N, Pattern}] -> {ok, Pattern};
        [] -> {error, unknown_pattern}
    end;
save(Pattern) when is_list(Pattern) ->
    Last = case ets:last(pattern_store) of
%%              ^^^^^^^^ R002 #1 read: the last pattern number (confirmed, non_serializable)
               '$end_of_table' -> 0;
               K -> K
           end,
    ets:insert(pattern_store, {Last + 1, Pattern}),
%%  ^^^^^^^^^^ R002 #1 write: a concurrent save's pattern is overwritten
    {saved, Last + 1}.

test() ->
    start(),
    {saved, 1} = save(lists:seq(1, 3)),
    {ok, [1, 2, 3]} = save(1),
    ets:delete(pattern_store),
    ok.
