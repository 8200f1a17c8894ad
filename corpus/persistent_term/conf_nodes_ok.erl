%% A group configuration cached in a persistent term, as in conf_cache_ok,
%% read through own_nodes/1, which takes either the flag or the
%% configuration itself (it calls itself with what conf/1 returned). Only
%% the registered server passes true; the map passed back is no atom.
%% Expected: R006 filtered (the put runs only in the one registered server).
-module(conf_nodes_ok).
-behaviour(gen_server).
-export([start/0, stop/0, own_nodes/0, set_nodes/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    {ok, _} = gen_server:start({local, ?MODULE}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?MODULE).

own_nodes() ->
    own_nodes(false).

set_nodes(Nodes) ->
    gen_server:call(?MODULE, {nodes, Nodes}).

own_nodes(Server) when is_boolean(Server) ->
    own_nodes(conf(Server));
own_nodes(#{nodes := Nodes}) ->
    Nodes.

conf(Server) ->
    case persistent_term:get(?MODULE, #{nodes => [], gen => 0}) of
%%       ^^^^^^^^^^^^^^^^^^ R006 #1 read: key conf_nodes_ok (filtered)
        #{nodes := Nodes, gen := Gen} ->
            Conf = #{nodes => Nodes, gen => Gen + 1},
            if Server == true -> persistent_term:put(?MODULE, Conf);
%%                               ^^^^^^^^^^^^^^^^^^ R006 #1 write: only when Server is true, i.e. in the server
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
    Pids = [spawn(fun() -> set_nodes(N), own_nodes(), Self ! {done, self()} end)
            || N <- [[a], [b]]],
    [receive {done, P} -> ok end || P <- Pids],
    Nodes = own_nodes(),
    stop(),
    Nodes.
