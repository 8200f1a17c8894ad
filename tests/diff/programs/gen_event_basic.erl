%% Checks: gen_event start, add_handler, notify, sync_notify, call, which_handlers, delete_handler, two handlers receive each event.
-module(gen_event_basic).
-behaviour(gen_event).
-export([main/0, init/1, handle_event/2, handle_call/2, terminate/2]).

init(Tag) -> {ok, {Tag, []}}.

handle_event(Event, {Tag, Seen}) -> {ok, {Tag, [Event | Seen]}}.

handle_call(seen, {Tag, Seen}) -> {ok, {Tag, lists:reverse(Seen)}, {Tag, Seen}};
handle_call(swap_out, State) -> {remove_handler, {removed, State}}.

terminate(Arg, {Tag, Seen}) -> {Tag, Arg, length(Seen)}.

main() ->
    {ok, M} = gen_event:start({local, rw_events}),
    ok = gen_event:add_handler(rw_events, {?MODULE, one}, one),
    ok = gen_event:add_handler(rw_events, {?MODULE, two}, two),
    io:format("~p~n", [lists:sort(gen_event:which_handlers(rw_events))]),
    ok = gen_event:notify(rw_events, first),
    ok = gen_event:sync_notify(rw_events, {second, 2}),
    io:format("~p~n", [gen_event:call(rw_events, {?MODULE, one}, seen)]),
    io:format("~p~n", [gen_event:delete_handler(rw_events, {?MODULE, one}, bye)]),
    gen_event:notify(rw_events, third),
    io:format("~p~n", [gen_event:call(rw_events, {?MODULE, two}, seen)]),
    io:format("~p~n", [gen_event:call(rw_events, {?MODULE, one}, seen)]),
    io:format("~p~n", [gen_event:call(rw_events, {?MODULE, two}, swap_out)]),
    io:format("~p~n", [gen_event:which_handlers(rw_events)]),
    io:format("~p~n", [gen_event:delete_handler(rw_events, {?MODULE, two}, x)]),
    ok = gen_event:stop(M),
    whereis(rw_events).
