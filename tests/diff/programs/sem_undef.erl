%% Checks: calling a function a loaded module does not export raises undef with {M, F, Args, _} first in the stack trace, for the program's modules, OTP library modules and modules racewit implements in part.
-module(sem_undef).
-export([main/0, f/1]).

f(X) -> X.

undef(F) ->
    try F() of
        V -> {returned, V}
    catch
        error:undef:St -> {undef, hd(St)};
        C:R -> {C, R}
    end.

main() ->
    M = list_to_atom("sem_undef"),
    [undef(fun() -> M:nofun(1, 2) end),
     undef(fun() -> apply(M, g, [3]) end),
     undef(fun() -> (fun sem_undef:h/0)() end),
     undef(fun() -> M:f(1, 2) end),
     undef(fun() -> M:f(7) end),
     undef(fun() -> lists:nofun(1) end),
     undef(fun() -> ets:nofun(1) end),
     undef(fun() -> gen_server:nofun(a, b) end),
     undef(fun() -> erlang:nofun() end),
     undef(fun() -> erlang:length(1, 2) end),
     undef(fun() -> maps:nofun(#{}) end),
     undef(fun() -> (list_to_atom("no_such_module_anywhere")):f(1) end),
     undef(fun() -> apply(lists, reverse, [[1, 2], [3], x]) end)].
