%% Checks: sizes the BEAM refuses: make_tuple/list_to_tuple beyond 2^24-1 elements (badarg), integers beyond 524,287 digits, binaries of 2^59 bits, atoms over 255 characters (system_limit).
-module(lim_refused_sizes).
-export([main/0]).

t(F) ->
    try F() of
        V when is_tuple(V) -> {ok, tuple_size(V)};
        V when is_binary(V) -> {ok, byte_size(V)};
        V when is_list(V) -> {ok, length(V)};
        V when is_integer(V), abs(V) > 1 bsl 64 -> {ok, big};
        V -> {ok, V}
    catch C:R -> {C, R}
    end.

n(S) -> list_to_integer(S).

main() ->
    Big = n("40"), Huge = n("64"),
    Max = n("33554367"),
    [t(fun() -> erlang:make_tuple(1 bsl Big, 0) end),
     t(fun() -> erlang:make_tuple(n("16777216"), 0) end),
     t(fun() -> erlang:make_tuple(1 bsl Huge, 0) end),
     t(fun() -> erlang:make_tuple(n("-1"), 0) end),
     t(fun() -> erlang:make_tuple(n("3"), 0, [{5, x}]) end),
     t(fun() -> erlang:make_tuple(1 bsl Big, 0, []) end),
     t(fun() -> binary:copy(<<"ab">>, 1 bsl Huge) end),
     t(fun() -> binary:copy(<<"ab">>, n("-1")) end),
     t(fun() -> binary:copy(<<>>, 1 bsl n("60")) end),
     t(fun() -> lists:duplicate(n("-1"), x) end),
     t(fun() -> lists:seq(1, n("-5")) end),
     t(fun() -> lists:seq(1, n("0")) end),
     t(fun() -> 1 bsl (1 bsl Big) end),
     t(fun() -> 1 bsl Max end),
     t(fun() -> 1 bsl (Max + 1) end),
     t(fun() -> 1 bsl (1 bsl Huge) end),
     t(fun() -> 0 bsl (1 bsl Huge) end),
     t(fun() -> 5 bsr (1 bsl Huge) end),
     t(fun() -> -5 bsr (1 bsl Huge) end),
     t(fun() -> (1 bsl 100) bsr (1 bsl Huge) end),
     t(fun() -> X = 1 bsl Max, X + X end),
     t(fun() -> X = 1 bsl Max, -X - X end),
     t(fun() -> X = (1 bsl Max) - 1, X + X end),
     t(fun() -> X = 1 bsl Max, X * 1 end),
     t(fun() -> X = 1 bsl Max, X * 2 end),
     t(fun() -> X = 1 bsl Max, bnot X end),
     t(fun() -> <<0:(1 bsl n("59"))>> end),
     t(fun() -> <<0:(1 bsl Huge)>> end),
     t(fun() -> <<0:(n("-1"))>> end),
     t(fun() -> list_to_atom(lists:duplicate(n("256"), $a)) end),
     t(fun() -> list_to_atom(lists:duplicate(n("255"), $a)) =:= list_to_atom(lists:duplicate(255, $a)) end),
     t(fun() -> binary_to_atom(binary:copy(<<"a">>, n("256"))) end),
     t(fun() -> binary_to_atom(binary:copy(<<"a">>, n("256")), latin1) end),
     t(fun() -> list_to_tuple(lists:seq(1, n("3"))) end),
     t(fun() -> erlang:append_element({}, x) end)].
