%% Checks: the spawn family with a node first (spawn/2,4, spawn_link/2,4, spawn_monitor/2,4, spawn_opt/3,5) on this node spawns here, as the forms without a node do; a node that is not an atom is badarg.
-module(bif_spawn_on_node).
-export([main/0, echo/2]).

echo(To, Msg) -> To ! {echo, Msg}.

main() ->
    Self = self(),
    N = node(),
    P1 = spawn(N, fun() -> Self ! one end),
    receive one -> ok end,
    spawn(N, ?MODULE, echo, [Self, two]),
    R2 = receive {echo, two} -> two end,
    process_flag(trap_exit, true),
    P3 = spawn_link(N, fun() -> exit(three) end),
    R3 = receive {'EXIT', P3, Why3} -> Why3 end,
    P4 = spawn_link(N, ?MODULE, echo, [Self, four]),
    R4 = receive {echo, four} -> receive {'EXIT', P4, Why4} -> {four, Why4} end end,
    {P5, M5} = spawn_monitor(N, fun() -> exit(five) end),
    R5 = receive {'DOWN', M5, process, P5, Why5} -> Why5 end,
    {P6, M6} = spawn_monitor(N, ?MODULE, echo, [Self, six]),
    R6 = receive {'DOWN', M6, process, P6, Why6} -> receive {echo, six} -> {six, Why6} end end,
    {P7, M7} = spawn_opt(N, fun() -> exit(seven) end, [monitor]),
    R7 = receive {'DOWN', M7, process, P7, Why7} -> Why7 end,
    P8 = spawn_opt(N, ?MODULE, echo, [Self, eight], []),
    R8 = receive {echo, eight} -> is_pid(P8) end,
    Bad = [catch spawn("node", fun() -> ok end), catch spawn_link(1, ?MODULE, echo, [Self, x])],
    {is_pid(P1), R2, R3, R4, R5, R6, R7, R8, [element(1, element(2, B)) || B <- Bad]}.
