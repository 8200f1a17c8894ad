%% The group configuration of conf_nodes_ok, but refresh/0 passes a flag
%% read from the configuration (true unless set otherwise), so a client
%% may store too: a refresh can put back the nodes set_nodes/1 replaced.
%% Expected: R006 reported (a caller may pass true from any process).
-module(conf_nodes).
-behaviour(gen_server).
-export([start/0, stop/0, own_nodes/0, set_nodes/1, refresh/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    {ok, _} = gen_server:start({local, ?MODULE}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?MODULE).

own_nodes() ->
    own_nodes(false).

refresh() ->
    own_nodes(persistent_term:get({?MODULE, refresh_stores}, true)).

set_nodes(Nodes) ->
    gen_server:call(?MODULE, {nodes, Nodes}).

own_nodes(Server) when is_boolean(Server) ->
    own_nodes(conf(Server));
own_nodes(#{nodes := Nodes}) ->
    Nodes.

conf(Server) ->
    case persistent_term:get(?MODULE, #{nodes => [], gen => 0}) of
%%       ^^^^^^^^^^^^^^^^^^ R006 #1 read: key conf_nodes
        #{nodes := Nodes, gen := Gen} ->
            Conf = #{nodes => Nodes, gen => Gen + 1},
            if Server == true -> persistent_term:put(?MODULE, Conf);
%%                               ^^^^^^^^^^^^^^^^^^ R006 #1 write: refresh/0 may pass true from any process
               true -> ok
            end,
            Conf
    end.

init([]) ->
    own_nodes(true),
    {ok, #{}}.

handle_call({nodes, Nodes}, _From, S) ->
    persistent_term:put(?MODULE, #{nodes => Nodes, gen => 0}),
    {reply, own_nodes(true), S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> F(), Self ! {done, self()} end)
            || F <- [fun() -> set_nodes([a]) end, fun() -> refresh() end]],
    [receive {done, P} -> ok end || P <- Pids],
    Nodes = own_nodes(),
    stop(),
    Nodes.
