%% A server that registers itself, makes and seeds its table, then turns
%% into a gen_server with gen_server:enter_loop/4 under {local, ?MODULE}:
%% it has no init/1 and declares no behaviour, yet its callbacks run in
%% that one registered process, which (before and after entering the loop)
%% does every write of the table.
%% Expected: R002 filtered (read and write serialised in the one server).
-module(looped_server_ok).
-export([start/0, stop/0, add/2, total/1, test/0]).
-export([handle_call/3, handle_cast/2, handle_info/2]).

start() ->
    Parent = self(),
    Pid = proc_lib:spawn(fun() -> boot(Parent) end),
    receive
        {ready, Pid} -> ok
    end.

boot(Parent) ->
    register(?MODULE, self()),
    ets:new(loop_totals, [named_table, public]),
    store(apples, 0),
    Parent ! {ready, self()},
    gen_server:enter_loop(?MODULE, [], #{}, {local, ?MODULE}).

stop() ->
    gen_server:stop(?MODULE).

add(Key, N) ->
    gen_server:call(?MODULE, {add, Key, N}).

total(Key) ->
    ets:lookup_element(loop_totals, Key, 2).

handle_call({add, Key, N}, _From, S) ->
    Old = case ets:lookup(loop_totals, Key) of
%%             ^^^^^^^^^^ R002 #1 read: ets loop_totals/<Key>, in the one looped server (filtered)
              [{_, T}] -> T;
              [] -> 0
          end,
    store(Key, Old + N),
    {reply, ok, S}.

store(Key, Total) ->
    ets:insert(loop_totals, {Key, Total}).
%%  ^^^^^^^^^^ R002 #1 write: in the server only (boot/1 calls it after the register), serialised

handle_cast(_Msg, S) ->
    {noreply, S}.

handle_info(_Msg, S) ->
    {noreply, S}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> add(apples, 2), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    T = total(apples),
    stop(),
    T.
