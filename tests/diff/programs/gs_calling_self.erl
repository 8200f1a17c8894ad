%% Checks: gen_server calling itself exits with calling_self; cast to a dead name is ok; call to a dead pid is noproc.
-module(gs_calling_self).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).

init([]) -> {ok, []}.

handle_call(self_call, _From, S) ->
    R = try gen_server:call(rw_selfish, ping) catch exit:E -> E end,
    {reply, R, S};
handle_call(ping, _From, S) -> {reply, pong, S}.

handle_cast(_, S) -> {noreply, S}.

main() ->
    {ok, P} = gen_server:start({local, rw_selfish}, ?MODULE, [], []),
    io:format("~p~n", [gen_server:call(rw_selfish, self_call)]),
    io:format("~p~n", [gen_server:call(rw_selfish, ping)]),
    gen_server:stop(P),
    io:format("~p~n", [gen_server:cast(rw_selfish, anything)]),
    io:format("~p~n", [gen_server:cast(P, anything)]),
    R = try gen_server:call(P, ping) catch exit:{Reason, _} -> Reason end,
    R.
