%% Checks: a simple_one_for_one supervisor: no child at start, start_child appends its arguments to the template's, which_children and count_children, a transient child restarted after a crash and forgotten after a normal exit, terminate_child by pid, delete_child refused.
-module(sup_simple_one_for_one).
-behaviour(supervisor).
-export([main/0, init/1, start_worker/2]).
main() ->
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, pool_sup}, ?MODULE, []),
    io:format("~p~n", [supervisor:which_children(pool_sup)]),
    {ok, A} = supervisor:start_child(pool_sup, [a]),
    {ok, B} = supervisor:start_child(pool_sup, [b]),
    io:format("~p~n", [supervisor:start_child(pool_sup, [ignore])]),
    io:format("~p~n", [supervisor:start_child(pool_sup, [fail])]),
    io:format("~p~n", [[{Id, P =:= A orelse P =:= B, T, M} || {Id, P, T, M} <- supervisor:which_children(pool_sup)]]),
    io:format("~p~n", [supervisor:count_children(pool_sup)]),
    io:format("~p~n", [call(A, name)]),
    stop(A, crash),
    Names = lists:sort([call(P, name) || {_, P, _, _} <- supervisor:which_children(pool_sup)]),
    io:format("~p~n", [Names]),
    stop(B, normal),
    io:format("~p~n", [length(supervisor:which_children(pool_sup))]),
    [{_, A2, _, _}] = supervisor:which_children(pool_sup),
    io:format("~p~n", [supervisor:terminate_child(pool_sup, A2)]),
    io:format("~p~n", [supervisor:terminate_child(pool_sup, A2)]),
    io:format("~p~n", [supervisor:delete_child(pool_sup, A2)]),
    io:format("~p~n", [supervisor:count_children(pool_sup)]),
    exit(Sup, shutdown),
    receive {'EXIT', Sup, R} -> io:format("~p~n", [R]) end,
    ok.
call(P, Q) ->
    P ! {Q, self()},
    receive {P, V} -> V end.
stop(P, Reason) ->
    M = monitor(process, P),
    P ! {stop, Reason},
    receive {'DOWN', M, _, _, _} -> ok end,
    _ = supervisor:which_children(pool_sup),
    ok.
init([]) ->
    {ok, {{simple_one_for_one, 5, 10},
          [{worker, {?MODULE, start_worker, [pool]}, transient, brutal_kill, worker, [?MODULE]}]}}.
start_worker(_Pool, ignore) -> ignore;
start_worker(_Pool, fail) -> {error, refused};
start_worker(Pool, Name) ->
    {ok, spawn_link(fun() -> loop({Pool, Name}) end)}.
loop(Name) ->
    receive
        {name, From} -> From ! {self(), Name}, loop(Name);
        {stop, R} -> exit(R)
    end.
