%% Checks: a node's standard processes and tables are there from the start: init, user, kernel_sup, application_controller, global_name_server, logger, file_server_2, code_server and rex are registered and alive; ac_tab, global_names and logger are named tables with their owners, type and protection.
-module(sem_system_processes).
-export([main/0]).

main() ->
    Names = [init, user, kernel_sup, application_controller, global_name_server, logger, file_server_2, code_server, rex],
    Alive = [{N, is_pid(whereis(N)) andalso is_process_alive(whereis(N))} || N <- Names],
    Registered = [N || N <- Names, lists:member(N, registered())],
    Init = whereis(init) =:= list_to_pid("<0.0.0>"),
    InProcesses = [lists:member(whereis(N), processes()) || N <- Names],
    Tables = [{T, ets:info(T, type), ets:info(T, protection), ets:info(T, named_table), ets:info(T, keypos)}
              || T <- [ac_tab, global_names, logger]],
    Owners = [ets:info(ac_tab, owner) =:= whereis(application_controller),
              ets:info(global_names, owner) =:= whereis(global_name_server),
              ets:info(logger, owner) =:= whereis(logger)],
    Info = [process_info(whereis(N), [registered_name, status, trap_exit, current_function])
            || N <- [init, user, application_controller]],
    Write = try ets:insert(global_names, {x, y}) catch error:R -> R end,
    {Alive, Registered, Init, InProcesses, Tables, Owners, Info, Write}.
