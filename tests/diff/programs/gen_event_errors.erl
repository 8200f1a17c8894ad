%% Checks: gen_event: handler crashing in handle_event is removed (others stay), add_handler returning error from init, swap_handler, call to a missing handler.
-module(gen_event_errors).
-behaviour(gen_event).
-export([main/0, init/1, handle_event/2, handle_call/2, terminate/2]).

init(fail) -> {error, refused};
init({swapped, Old}) -> {ok, {swapped_from, Old}};
init(S) -> {ok, S}.

handle_event(boom, fragile) -> error(handler_boom);
handle_event(_, S) -> {ok, S}.

handle_call(state, S) -> {ok, S, S}.

terminate(swap, S) -> {old_state, S};
terminate(_, _) -> ok.

main() ->
    {ok, M} = gen_event:start(),
    ok = gen_event:add_handler(M, {?MODULE, a}, fragile),
    ok = gen_event:add_handler(M, {?MODULE, b}, sturdy),
    io:format("~p~n", [gen_event:add_handler(M, {?MODULE, c}, fail)]),
    gen_event:sync_notify(M, boom),
    io:format("~p~n", [gen_event:which_handlers(M)]),
    io:format("~p~n", [gen_event:call(M, {?MODULE, a}, state)]),
    ok = gen_event:swap_handler(M, {{?MODULE, b}, swap}, {{?MODULE, d}, {swapped, x}}),
    io:format("~p~n", [gen_event:which_handlers(M)]),
    io:format("~p~n", [gen_event:call(M, {?MODULE, d}, state)]),
    gen_event:stop(M).
