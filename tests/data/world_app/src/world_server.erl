-module(world_server).
-behaviour(gen_server).
-include_lib("kernel/include/logger.hrl").
-export([start_link/0, add_peer/1, peers/0, hits/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start_link() ->
    gen_server:start_link({local, world_server}, ?MODULE, [], []).

add_peer(Addr) -> gen_server:call(world_server, {add_peer, Addr}).
peers() -> gen_server:call(world_server, peers).
hits() -> gen_server:call(world_server, hits).

init([]) ->
    {ok, Greeting} = application:get_env(greeting),
    ?LOG_NOTICE("world_server starting: ~s", [Greeting]),
    Counter = counters:new(1, []),
    {ok, #{peers => sets:new(), counter => Counter}}.

handle_call({add_peer, Text}, _From, #{peers := Peers, counter := C} = S) ->
    counters:add(C, 1, 1),
    case inet:parse_address(Text) of
        {ok, Addr} ->
            {ok, Max} = application:get_env(world_app, max_peers),
            case sets:size(Peers) < Max of
                true -> {reply, ok, S#{peers := sets:add_element(Addr, Peers)}};
                false ->
                    ?LOG_WARNING("peer limit reached, ~s refused", [Text]),
                    {reply, {error, full}, S}
            end;
        {error, einval} ->
            {reply, {error, bad_address}, S}
    end;
handle_call(peers, _From, #{peers := Peers} = S) ->
    {reply, lists:sort(sets:to_list(Peers)), S};
handle_call(hits, _From, #{counter := C} = S) ->
    {reply, counters:get(C, 1), S}.

handle_cast(_Msg, S) ->
    {noreply, S}.
