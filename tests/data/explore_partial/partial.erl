%% Tests whose runs cannot be explored whole: racewit explore must not say
%% "every interleaving explored" for them, and must exit 1.
-module(partial).
-export([never_ends/0, steps_forever/0, parked_sender/0, parked_after/0, many_orders/0,
         parked_not_loaded/0]).

%% Never terminates: every run is cut at the step limit.
never_ends() ->
    Self = self(),
    spawn(fun() -> Self ! ready end),
    receive ready -> ok end,
    spin(0).

spin(N) -> spin(N + 1).

%% Never terminates, one message at a time: every run is cut at the step
%% limit (--max-run-steps), not by the reduction budget.
steps_forever() ->
    Self = self(),
    spawn(fun() -> Self ! ready end),
    receive ready -> ok end,
    echo(0).

echo(N) ->
    self() ! N,
    receive N -> echo(N + 1) end.

%% The process the parent waits for stops at a call the VM cannot run: the
%% parent is left waiting, but that is no deadlock racewit could judge.
parked_sender() ->
    Self = self(),
    spawn(fun() -> Self ! {cwd, os:cmd("pwd")} end),
    spawn(fun() -> Self ! other end),
    receive {cwd, _} -> ok end,
    receive other -> ok end.

%% Everything the test checks happens before the unsupported call, but the
%% runs still do not show the whole program.
parked_after() ->
    Self = self(),
    spawn(fun() -> Self ! one end),
    receive one -> ok end,
    {ok, _} = file:read_file("/etc/hostname"),
    ok.

%% Runs whole, but has more interleavings than a small budget: a search
%% stopped at the budget has runs left and claims nothing.
many_orders() ->
    Self = self(),
    [spawn(fun() -> Self ! {I, I * I} end) || I <- [1, 2, 3, 4]],
    %% Each receive takes any of the messages: their order is seen.
    [receive {_, _} -> ok end || _ <- [1, 2, 3, 4]],
    ok.

%% The awaited process calls a module no loaded code defines (a dependency
%% left out of the analysed paths): the runs stop there, and the report
%% says the module is not loaded, not that the call is unsupported.
parked_not_loaded() ->
    Self = self(),
    spawn(fun() -> Self ! {dep, racewit_missing_dep:start()} end),
    receive {dep, _} -> ok end.
