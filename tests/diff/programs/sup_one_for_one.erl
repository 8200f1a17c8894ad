%% Checks: supervisor one_for_one: start_link, start_child, which_children count, count_children, restart of a crashed permanent child.
-module(sup_one_for_one).
-behaviour(supervisor).
-export([main/0, init/1, start_worker/1, worker_loop/1]).

init(top) ->
    {ok, {#{strategy => one_for_one, intensity => 5, period => 10}, []}}.

start_worker(Name) ->
    Pid = spawn_link(?MODULE, worker_loop, [Name]),
    register(Name, Pid),
    {ok, Pid}.

worker_loop(Name) ->
    receive
        {From, whoami} -> From ! {iam, Name}, worker_loop(Name);
        crash -> exit(crashed)
    end.

spec(Name, Restart) ->
    #{id => Name, start => {?MODULE, start_worker, [Name]}, restart => Restart,
      shutdown => brutal_kill, type => worker}.

ask(Name) ->
    Name ! {self(), whoami},
    receive {iam, N} -> N after 500 -> no_answer end.

crash_and_sync(Name) ->
    Pid = whereis(Name),
    Ref = monitor(process, Pid),
    Pid ! crash,
    receive {'DOWN', Ref, process, Pid, _} -> ok end,
    _ = supervisor:which_children(rw_sup),
    ok.

main() ->
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, rw_sup}, ?MODULE, top),
    io:format("~p~n", [length(supervisor:which_children(rw_sup))]),
    {ok, _} = supervisor:start_child(rw_sup, spec(rw_w1, permanent)),
    {ok, _} = supervisor:start_child(rw_sup, spec(rw_w2, temporary)),
    io:format("~p~n", [length(supervisor:which_children(rw_sup))]),
    io:format("~p~n", [lists:sort([Id || {Id, _, worker, _} <- supervisor:which_children(rw_sup)])]),
    io:format("~p~n", [supervisor:count_children(rw_sup)]),
    io:format("~p~n", [ask(rw_w1)]),
    Old = whereis(rw_w1),
    crash_and_sync(rw_w1),
    New = whereis(rw_w1),
    io:format("restarted: ~p~n", [is_pid(New) andalso New =/= Old]),
    io:format("~p~n", [ask(rw_w1)]),
    crash_and_sync(rw_w2),
    io:format("temporary gone: ~p~n", [whereis(rw_w2)]),
    io:format("~p~n", [length(supervisor:which_children(rw_sup))]),
    {error, {already_started, _}} = supervisor:start_child(rw_sup, spec(rw_w1, permanent)),
    io:format("~p~n", [supervisor:terminate_child(rw_sup, rw_w1)]),
    io:format("~p~n", [supervisor:delete_child(rw_sup, rw_w1)]),
    io:format("~p~n", [supervisor:which_children(rw_sup)]),
    unlink(Sup),
    exit(Sup, shutdown),
    ok.
