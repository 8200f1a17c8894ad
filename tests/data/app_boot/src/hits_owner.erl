%% Owns the hits table for the application's lifetime; clients write it
%% directly (it is public).
-module(hits_owner).
-behaviour(gen_server).
-export([start_link/0, init/1, handle_call/3, handle_cast/2]).

start_link() ->
    gen_server:start_link({local, hits_owner}, hits_owner, [], []).

init([]) ->
    hits_table = ets:new(hits_table, [named_table, public, set]),
    {ok, #{}}.

handle_call(_Request, _From, State) ->
    {reply, ok, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.
