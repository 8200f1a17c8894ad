%% The quota server quota_client calls by name: it makes the public table
%% the clients count their uses in, and answers the quota.
-module(quota_srv).
-behaviour(gen_server).
-export([start_link/0, init/1, handle_call/3, handle_cast/2, test/0]).

start_link() ->
    gen_server:start_link({local, quota_srv}, ?MODULE, [], []).

init([]) ->
    ets:new(quota_used, [named_table, public, set]),
    {ok, #{}}.

handle_call(limit, _From, S) ->
    {reply, 10, S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    {ok, Pid} = start_link(),
    unlink(Pid),
    10 = gen_server:call(quota_srv, limit),
    exit(Pid, kill),
    ok.
