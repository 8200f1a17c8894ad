%% Checks: maps:next/1 walks an iterator to none and raises badarg for anything that is not an iterator; maps:iterator/1 of a non-map is {badmap, X}; an iterator's walk visits every key once.
-module(maps_iterator_errors).
-export([main/0]).

reason(G) -> try G() of V -> {ok, V} catch error:E -> E end.

walk(I, Acc) ->
    case maps:next(I) of
        none -> lists:sort(Acc);
        {K, V, Next} -> walk(Next, [{K, V} | Acc])
    end.

main() ->
    M = #{a => 1, b => 2, c => 3},
    Walked = walk(maps:iterator(M), []),
    Empty = maps:next(maps:iterator(#{})),
    Bad = [reason(fun() -> maps:next(X) end)
           || X <- [bad_iterator, 42, {}, {a}, [x | y], [], #{}, {1, 2}]],
    NotMap = [reason(fun() -> maps:iterator(X) end) || X <- [[], not_a_map, {}]],
    Last = element(3, maps:next(maps:iterator(#{only => 1}))),
    {Walked, Empty, Bad, NotMap, maps:next(Last)}.
