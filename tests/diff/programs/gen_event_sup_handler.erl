%% Checks: gen_event handler order (newest first), a module added twice, add_sup_handler's {gen_event_EXIT, Id, Reason} on delete, crash, remove_handler and stop, and a supervisor's exit ending its handlers with {stop, Reason}.
-module(gen_event_sup_handler).
-behaviour(gen_event).
-export([main/0, init/1, handle_event/2, handle_call/2, handle_info/2, terminate/2]).

init({Name, Collector}) -> {ok, {Name, Collector}}.
handle_event(crash, {fragile, _}) -> error(boom);
handle_event(leave, {leaving, _}) -> remove_handler;
handle_event(odd, {odd, _}) -> unexpected;
handle_event(Event, {Name, Collector} = S) -> Collector ! {Name, Event}, {ok, S}.
handle_call(name, {Name, _} = S) -> {ok, Name, S}.
handle_info(_Info, S) -> {ok, S}.
terminate(Args, {Name, Collector}) ->
    Collector ! {terminated, Name, strip(Args)},
    {bye, Name}.

strip({error, {'EXIT', {Reason, _Stack}}}) -> {error, 'EXIT', Reason};
strip(Other) -> Other.

main() ->
    Me = self(),
    {ok, M} = gen_event:start(),
    ok = gen_event:add_handler(M, ?MODULE, {first, Me}),
    ok = gen_event:add_handler(M, ?MODULE, {second, Me}),
    io:format("which: ~p~n", [gen_event:which_handlers(M)]),
    ok = gen_event:sync_notify(M, hello),
    First = receive {N1, hello} -> N1 end,
    Second = receive {N2, hello} -> N2 end,
    io:format("order: ~p ~p~n", [First, Second]),
    io:format("call: ~p~n", [gen_event:call(M, ?MODULE, name)]),
    io:format("delete: ~p~n", [gen_event:delete_handler(M, ?MODULE, done)]),
    io:format("~p~n", [receive T1 -> T1 end]),
    io:format("delete: ~p~n", [gen_event:delete_handler(M, ?MODULE, done)]),
    io:format("~p~n", [receive T2 -> T2 end]),
    %% Supervised handlers.
    ok = gen_event:add_sup_handler(M, {?MODULE, a}, {a, Me}),
    ok = gen_event:add_sup_handler(M, {?MODULE, f}, {fragile, Me}),
    ok = gen_event:add_sup_handler(M, {?MODULE, l}, {leaving, Me}),
    ok = gen_event:add_sup_handler(M, {?MODULE, o}, {odd, Me}),
    io:format("linked: ~p~n", [lists:member(M, element(2, process_info(Me, links)))]),
    ok = gen_event:sync_notify(M, crash),
    ok = gen_event:sync_notify(M, leave),
    ok = gen_event:sync_notify(M, odd),
    io:format("~p~n", [lists:sort(drain())]),
    io:format("delete: ~p~n", [gen_event:delete_handler(M, {?MODULE, a}, done)]),
    io:format("~p~n", [lists:sort(drain())]),
    %% A supervisor that exits takes its handlers with it.
    Sup = spawn(fun() ->
                        ok = gen_event:add_sup_handler(M, {?MODULE, s}, {s, Me}),
                        Me ! added,
                        receive go -> exit(gone) end
                end),
    receive added -> ok end,
    ok = gen_event:add_sup_handler(M, {?MODULE, t}, {t, Me}),
    Ref = monitor(process, Sup),
    Sup ! go,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    io:format("which: ~p~n", [gen_event:which_handlers(M)]),
    io:format("~p~n", [lists:sort(drain())]),
    io:format("stop: ~p~n", [gen_event:stop(M)]),
    io:format("~p~n", [lists:sort(drain())]),
    ok.

drain() ->
    receive
        {'EXIT', _, _} -> drain();
        {gen_event_EXIT, Id, {'EXIT', {Reason, _Stack}}} -> [{gen_event_EXIT, Id, 'EXIT', Reason} | drain()];
        T -> [T | drain()]
    after 100 -> []
    end.
