-module(case_if).
-export([c/1, exported/1, i/1, guards/1]).

c(X) ->
    case X of
        {ok, V} when is_integer(V), V > 0; V =:= -1 -> V;
        [H | _] -> H;
        _ -> none
    end.
exported(X) ->
    case X of
        1 -> Y = one, Z = a;
        2 -> Y = two
    end,
    Y.
i(X) ->
    if X > 10 -> big;
       X > 5, X < 8 -> medium;
       true -> small
    end.
guards(X) when is_list(X) andalso length(X) > 2; is_tuple(X) orelse is_map(X) -> yes;
guards(_) -> no.
