%% A per-connection rate counter: each connection starts its own (unnamed)
%% server, whose init/1 makes a public table and keeps it in the state.
%% Every read and write of the table is in the server's callbacks, so the
%% server's mailbox serialises them; other servers have tables of their own.
%% Expected: R002 filtered (serialised in the server that owns the table).
-module(state_table_ok).
-behaviour(gen_server).
-export([start/0, hit/2, count/2, stop/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-record(st, {tab}).

start() ->
    gen_server:start(?MODULE, [], []).

hit(Pid, Key) ->
    gen_server:call(Pid, {hit, Key}).

count(Pid, Key) ->
    gen_server:call(Pid, {count, Key}).

stop(Pid) ->
    gen_server:stop(Pid).

init([]) ->
    {ok, #st{tab = ets:new(hits, [set, public])}}.

handle_call({hit, Key}, _From, #st{tab = T} = S) ->
    N = case ets:lookup(T, Key) of
%%           ^^^^^^^^^^ R002 #1 read: ets <tid>/Key (filtered: serialised in the owning server)
            [{Key, M}] -> M;
            [] -> 0
        end,
    ets:insert(T, {Key, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write: only this server's callbacks write its table
    {reply, N + 1, S};
handle_call({count, Key}, _From, #st{tab = T} = S) ->
    {reply, length(ets:lookup(T, Key)), S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    {ok, P} = start(),
    Self = self(),
    Pids = [spawn(fun() -> hit(P, a), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, Q} -> ok end || Q <- Pids],
    1 = count(P, a),
    stop(P),
    ok.
