%% Group membership scopes in the style of OTP's pg: each scope is a server
%% started under the scope's name, whose init/1 makes a named table called
%% after the scope. join/3 asks the server; the server reads the group and
%% writes it back in one handle_call, and no other code writes the table.
%% Expected: R002 filtered (serialised in the server that made the table).
-module(scope_table_ok).
-behaviour(gen_server).
-export([start/1, join/3, members/2, stop/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start(Scope) ->
    gen_server:start({local, Scope}, ?MODULE, [Scope], []).

join(Scope, Group, Pid) ->
    gen_server:call(Scope, {join, Group, Pid}).

members(Scope, Group) ->
    case ets:lookup(Scope, Group) of
        [{Group, Ms}] -> Ms;
        [] -> []
    end.

stop(Scope) ->
    gen_server:stop(Scope).

init([Scope]) ->
    Scope = ets:new(Scope, [set, public, named_table]),
    {ok, Scope}.

handle_call({join, Group, Pid}, _From, Scope) ->
    Old = case ets:lookup(Scope, Group) of
%%             ^^^^^^^^^^ R002 #1 read: ets Scope/Group (filtered: serialised in the scope's server)
              [{Group, Ms}] -> Ms;
              [] -> []
          end,
    ets:insert(Scope, {Group, [Pid | Old]}),
%%  ^^^^^^^^^^ R002 #1 write: only the scope's server writes its table
    {reply, ok, Scope}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    {ok, _} = start(scope_a),
    Self = self(),
    Pids = [spawn(fun() -> join(scope_a, g, self()), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    2 = length(members(scope_a, g)),
    stop(scope_a),
    ok.
