%% Checks: supervisor with gen_server children given in init, calls to children by name, restart after a child crash keeps the name.
-module(sup_gen_server_children).
-export([main/0, init/1, handle_call/3, handle_cast/2, start_child/1]).

start_child(Name) -> gen_server:start_link({local, Name}, ?MODULE, {child, Name}, []).

init(sup) ->
    Child = fun(N) -> #{id => N, start => {?MODULE, start_child, [N]}} end,
    {ok, {#{strategy => one_for_one}, [Child(rw_c1), Child(rw_c2)]}};
init({child, Name}) ->
    {ok, #{name => Name, hits => 0}}.

handle_call(hit, _From, S = #{hits := H}) -> {reply, H + 1, S#{hits := H + 1}};
handle_call(crash, _From, _S) -> exit(asked_to_crash).

handle_cast(_, S) -> {noreply, S}.

wait_restarted(Name, Old) ->
    case whereis(Name) of
        P when is_pid(P), P =/= Old -> ok;
        _ -> erlang:yield(), wait_restarted(Name, Old)
    end.

main() ->
    {ok, Sup} = supervisor:start_link(?MODULE, sup),
    io:format("~p~n", [[Id || {Id, _, _, _} <- lists:sort(supervisor:which_children(Sup))]]),
    io:format("~p~n", [[gen_server:call(rw_c1, hit) || _ <- [1, 2, 3]]]),
    io:format("~p~n", [gen_server:call(rw_c2, hit)]),
    Old = whereis(rw_c1),
    R = try gen_server:call(rw_c1, crash) catch exit:{Reason, _} -> Reason end,
    io:format("~p~n", [R]),
    wait_restarted(rw_c1, Old),
    io:format("after restart: ~p~n", [gen_server:call(rw_c1, hit)]),
    io:format("~p~n", [supervisor:count_children(Sup)]),
    unlink(Sup),
    Ref = monitor(process, Sup),
    exit(Sup, shutdown),
    receive {'DOWN', Ref, process, _, Why} -> io:format("sup down: ~p~n", [Why]) end,
    {whereis(rw_c1), whereis(rw_c2)}.
