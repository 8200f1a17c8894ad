%% Checks: erlang:spawn_request/1..5 on the local node (replies, reply tags, monitor as the request's reference, link, error replies for bad options and other nodes, badarg shapes), spawn_request_abandon/1, and erpc:call/rpc:call to node() with a timeout, which run over it.
-module(bif_spawn_request).
-export([main/0, w/1]).

w(X) -> exit({done, X}).

c(F) -> try F() catch C:R -> {C, R} end.

%% Messages waiting now, each request reference replaced by `req`.
flush(R) ->
    receive
        M when element(2, M) =:= R -> [setelement(2, M, req) | flush(R)];
        M -> [M | flush(R)]
    after 50 -> []
    end.

pidless(L) -> [case M of {T, req, ok, P} when is_pid(P) -> {T, req, ok, pid}; {'DOWN', req, process, P, W} when is_pid(P) -> {'DOWN', req, process, pid, W}; _ -> M end || M <- L].

main() ->
    process_flag(trap_exit, true),
    R1 = spawn_request(?MODULE, w, [1]),
    io:format("plain ~p ~p~n", [is_reference(R1), pidless(flush(R1))]),
    R2 = spawn_request(?MODULE, w, [2], [monitor]),
    io:format("monitor ~p~n", [pidless(flush(R2))]),
    R3 = spawn_request(node(), ?MODULE, w, [3], [{reply, error_only}, monitor]),
    io:format("error_only ~p~n", [pidless(flush(R3))]),
    R4 = spawn_request(fun() -> ok end, [{reply_tag, mytag}]),
    io:format("tag ~p~n", [pidless(flush(R4))]),
    R5 = spawn_request(fun() -> ok end, [{reply, no}]),
    io:format("no ~p ~p~n", [flush(R5), spawn_request_abandon(R5)]),
    R6 = spawn_request(other@nohost, ?MODULE, w, [4], [monitor]),
    io:format("other node ~p~n", [flush(R6)]),
    R7 = spawn_request(other@nohost, fun() -> ok end),
    io:format("other node fun ~p~n", [flush(R7)]),
    R8 = spawn_request(?MODULE, w, [1], [bogus]),
    io:format("badopt ~p~n", [flush(R8)]),
    R9 = spawn_request(?MODULE, w, [1], [{reply, maybe}, {reply, no}]),
    io:format("badopt, no reply ~p~n", [flush(R9)]),
    R10 = spawn_request(?MODULE, w, notalist),
    io:format("args not a list ~p~n", [flush(R10)]),
    R11 = spawn_request(?MODULE, w, [5], [link, {reply, success_only}]),
    io:format("link ~p~n", [[case M of {'EXIT', P, W} when is_pid(P) -> {'EXIT', pid, W}; _ -> M end || M <- pidless(flush(R11))]]),
    R12 = spawn_request(?MODULE, nope, [], [monitor, {reply, no}, {priority, high}]),
    io:format("undef ~p~n", [[case M of {'DOWN', req, process, pid, {undef, _}} -> down_undef; _ -> M end || M <- pidless(flush(R12))]]),
    io:format("badarg ~p~n", [[c(F) || F <- [fun() -> spawn_request(fun(_) -> ok end) end,
                                              fun() -> spawn_request(?MODULE, "w", []) end,
                                              fun() -> spawn_request("n", ?MODULE, w, [], []) end,
                                              fun() -> spawn_request(?MODULE, w, [1], bogus) end,
                                              fun() -> spawn_request_abandon(x) end]]]),
    io:format("erpc ~p~n", [erpc:call(node(), lists, reverse, [[1, 2, 3]], 1000)]),
    io:format("erpc error ~p~n", [c(fun() -> erpc:call(node(), erlang, error, [boom], 1000) end)]),
    io:format("erpc exit ~p~n", [c(fun() -> erpc:call(node(), erlang, exit, [bye], 1000) end)]),
    io:format("rpc ~p ~p~n", [rpc:call(node(), lists, sum, [[1, 2, 3]], 1000),
                              rpc:call(node(), erlang, error, [boom], 1000)]),
    done.
