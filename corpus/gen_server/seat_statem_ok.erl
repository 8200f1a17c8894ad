%% Seat reservations in a gen_statem whose data holds a protected table
%% made in init/1: only the state machine's own process can write it, and
%% it reads and writes a seat in one event.
%% Expected: R002 filtered (a protected table, read and written by its owner).
-module(seat_statem_ok).
-behaviour(gen_statem).
-export([start/0, stop/0, reserve/1, test/0]).
-export([init/1, callback_mode/0, open/3]).

start() ->
    {ok, _} = gen_statem:start({local, ?MODULE}, ?MODULE, [], []),
    ok.

stop() ->
    gen_statem:stop(?MODULE).

reserve(Seat) ->
    gen_statem:call(?MODULE, {reserve, Seat}).

callback_mode() ->
    state_functions.

init([]) ->
    Tab = ets:new(seats, [protected]),
    ets:insert(Tab, {s1, free}),
    {ok, open, #{tab => Tab}}.

open({call, From}, {reserve, Seat}, #{tab := Tab} = Data) ->
    Reply = case ets:lookup(Tab, Seat) of
%%               ^^^^^^^^^^ R002 #1 read: ets <tid>/<Seat>, a protected table of the owner (filtered)
                [{Seat, free}] -> ets:insert(Tab, {Seat, taken}), ok;
%%                                ^^^^^^^^^^ R002 #1 write: only the owner writes it
                _ -> {error, taken}
            end,
    {keep_state, Data, [{reply, From, Reply}]}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), reserve(s1)} end) || _ <- [1, 2]],
    R = lists:sort([receive {P, X} -> X end || P <- Pids]),
    stop(),
    R.
