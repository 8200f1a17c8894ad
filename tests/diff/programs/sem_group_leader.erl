%% Checks: group_leader/0 and group_leader/2: a process inherits its parent's group leader, group_leader/2 changes another's, and takes only pids of processes that exist.
-module(sem_group_leader).
-export([main/0, loop/0]).

c(F) -> try F() catch C:R -> {C, R} end.

loop() -> receive {gl, From} -> From ! {gl, group_leader()}, loop(); stop -> ok end.

main() ->
    GL = group_leader(),
    P = spawn(?MODULE, loop, []),
    P ! {gl, self()},
    Inherited = receive {gl, G} -> G =:= GL end,
    {group_leader, G0} = process_info(P, group_leader),
    Set = group_leader(self(), P),
    P ! {gl, self()},
    Changed = receive {gl, G2} -> G2 =:= self() end,
    Info = element(2, process_info(P, group_leader)) =:= self(),
    Dead = spawn(fun() -> ok end),
    timer:sleep(10),
    Bad = [c(fun() -> group_leader(x, P) end),
           c(fun() -> group_leader(self(), x) end),
           c(fun() -> group_leader(self(), Dead) end)],
    P ! stop,
    {is_pid(GL), GL =:= whereis(user), Inherited, G0 =:= GL, Set, Changed, Info, Bad}.
