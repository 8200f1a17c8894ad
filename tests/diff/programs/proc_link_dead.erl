%% Checks: link/1 to an already-dead process: a trapping caller gets {'EXIT',Pid,noproc}; a non-trapping caller gets error noproc from link/1 itself.
-module(proc_link_dead).
-export([main/0]).

main() ->
    {Dead, DeadRef} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', DeadRef, process, Dead, normal} -> ok end,
    process_flag(trap_exit, true),
    io:format("~p~n", [link(Dead)]),
    io:format("~p~n", [receive {'EXIT', Dead, R} -> R after 1000 -> nothing end]),
    Self = self(),
    {Child, Ref} = spawn_monitor(fun() -> link(Dead), Self ! survived end),
    io:format("~p~n", [receive survived -> survived after 100 -> no_message end]),
    io:format("~p~n", [receive {'DOWN', Ref, process, Child, {Why, St}} when is_list(St) -> {error, Why};
                               {'DOWN', Ref, process, Child, Why} -> Why end]),
    Live = spawn(fun() -> receive stop -> ok end end),
    io:format("~p~n", [link(Live)]),
    io:format("~p~n", [unlink(Live)]),
    Live ! stop,
    io:format("~p~n", [receive {'EXIT', Live, R2} -> R2 after 100 -> no_exit_after_unlink end]),
    process_flag(trap_exit, false).
