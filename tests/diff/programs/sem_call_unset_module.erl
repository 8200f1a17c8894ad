%% Checks: a call on a module held in a value that was never set (the atom undefined, which the code also writes) raises undef, as on the BEAM, so code that catches it goes on (syn loads its optional event handler this way).
-module(sem_call_unset_module).
-export([main/0]).

handler() -> application:get_env(sem_call_unset_module, event_handler, undefined).

main() ->
    M = handler(),
    Caught = catch M:module_info(exports),
    {'EXIT', {Reason, [{Mod, Fun, Args, _} | _]}} = Caught,
    io:format("~p ~p ~p ~p~n", [Reason, Mod, Fun, Args]),
    Exported = erlang:function_exported(M, on_event, 2),
    B = (M =:= undefined),
    Tried = try B:f(1) catch error:E -> E end,
    {Exported, Tried}.
