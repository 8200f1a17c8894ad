%% Tests whose runs cannot stand for the whole program: exploring them
%% must never end in a claim that every interleaving was explored.
-module(partial_runs).
-export([parked_always/0, parked_sometimes/0, parked_beside_a_tick/0, steps_forever/0, spins_forever/0, whole/0]).

%% A process stops at a call the VM cannot run, in every run.
parked_always() ->
    Self = self(),
    spawn(fun() -> Self ! {out, os:cmd("true")} end),
    spawn(fun() -> Self ! other end),
    receive other -> ok end.

%% Only in the runs where the child sees the name taken does it reach the
%% unsupported call.
parked_sometimes() ->
    spawn(fun() ->
              case whereis(flag) of
                  undefined -> ok;
                  _ -> os:cmd("true")
              end
          end),
    register(flag, self()),
    receive never -> ok after 10 -> ok end.

%% A server ticks on a timer while its caller is parked at a call the VM
%% cannot run: the caller would go on in a real node, so no tick is due
%% (time only passes when the program is stuck), and every run ends parked
%% at once instead of being cut at the step limit.
parked_beside_a_tick() ->
    Server = spawn(fun tick/0),
    os:cmd("true"),
    Server ! stop.

tick() ->
    erlang:send_after(10, self(), tick),
    receive
        tick -> tick();
        stop -> ok
    end.

%% Two processes send each other messages forever: every run is cut at the
%% step limit.
steps_forever() ->
    Self = self(),
    Peer = spawn(fun() -> pong(Self) end),
    ping(Peer).

ping(Peer) ->
    Peer ! ping,
    receive pong -> ping(Peer) end.

pong(Parent) ->
    receive ping -> Parent ! pong, pong(Parent) end.

%% Loops without a visible action: the VM's reduction budget cuts it.
spins_forever() ->
    Self = self(),
    spawn(fun() -> Self ! ready end),
    receive ready -> ok end,
    spin(0).

spin(N) -> spin(N + 1).

%% The control: explored whole.
whole() ->
    Self = self(),
    spawn(fun() -> Self ! a end),
    spawn(fun() -> Self ! b end),
    receive X -> receive Y -> [X, Y] end end.
