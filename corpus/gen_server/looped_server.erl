%% Totals in a public table shared by every adder server. start/0 spawns a
%% process that turns into a gen_server with gen_server:enter_loop/3, under
%% no name, so each call starts one more; two adders read the same total
%% and the second write loses the first one's addition.
%% Expected: R002 reported (read and write in servers that are many).
-module(looped_server).
-export([make_table/0, start/0, add/3, total/1, test/0]).
-export([handle_call/3, handle_cast/2, handle_info/2]).

make_table() ->
    ets:new(adder_totals, [named_table, public]),
    ok.

start() ->
    Parent = self(),
    Pid = proc_lib:spawn(fun() ->
                        Parent ! {ready, self()},
                        gen_server:enter_loop(?MODULE, [], #{})
                end),
    receive
        {ready, Pid} -> {ok, Pid}
    end.

add(Server, Key, N) ->
    gen_server:call(Server, {add, Key, N}).

total(Key) ->
    ets:lookup_element(adder_totals, Key, 2).

handle_call({add, Key, N}, _From, S) ->
    Old = case ets:lookup(adder_totals, Key) of
%%             ^^^^^^^^^^ R002 #1 read: ets adder_totals/<Key>, in any adder server
              [{_, T}] -> T;
              [] -> 0
          end,
    ets:insert(adder_totals, {Key, Old + N}),
%%  ^^^^^^^^^^ R002 #1 write: another adder may have written in between
    {reply, ok, S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

handle_info(_Msg, S) ->
    {noreply, S}.

test() ->
    make_table(),
    {ok, A} = start(),
    {ok, B} = start(),
    Self = self(),
    Pid = spawn(fun() -> add(A, apples, 2), Self ! {done, self()} end),
    add(B, apples, 2),
    receive {done, Pid} -> ok end,
    total(apples).
