%% Checks: catch inside catch, catch of a catch value, try inside catch, and exceptions rethrown out of after blocks.
-module(exc_nested_catch).
-export([main/0]).

main() ->
    A = catch (catch throw(inner)),
    io:format("~p~n", [A]),
    B = catch begin X = (catch throw(first)), throw({second, X}) end,
    io:format("~p~n", [B]),
    C = catch try throw(t) catch throw:T -> {handled, T} end,
    io:format("~p~n", [C]),
    D = try
            try ok after throw(from_after) end
        catch
            throw:W -> {after_threw, W}
        end,
    io:format("~p~n", [D]),
    E = try
            try error(body) after throw(after_wins) end
        catch
            C2:R2 -> {C2, R2}
        end,
    io:format("~p~n", [E]),
    {'EXIT', {F, _}} = catch (catch error(not_caught_by_inner_catch)) + 1,
    io:format("~p~n", [F]),
    catch exit(done).
