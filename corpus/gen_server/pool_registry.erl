%% A pool manager that starts named workers on request.  The client checks
%% whereis/1 itself and only asks the server to start the worker when the name
%% is free; two clients for the same worker both ask, and the server's second
%% register/2 raises badarg and takes the pool manager down.
%% Expected: R001 confirmed, crash, bound 1.
-module(pool_registry).
-behaviour(gen_server).
-export([start/0, stop/0, checkout/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    {ok, _} = gen_server:start({local, pool_registry}, ?MODULE, [], []),
    ok.

stop() ->
    catch gen_server:stop(pool_registry),
    ok.

checkout(Worker) when is_atom(Worker) ->
    case whereis(Worker) of
%%       ^^^^^^^ R001 #1 read: registry <Worker>, in the client (confirmed, crash)
        undefined -> gen_server:call(pool_registry, {start_worker, Worker});
        Pid -> {ok, Pid}
    end.

init([]) ->
    {ok, #{}}.

handle_call({start_worker, Worker}, _From, Workers) ->
    Pid = spawn(fun() -> worker_loop() end),
    register(Worker, Pid),
%%  ^^^^^^^^ R001 #1 write: in the server; badarg crashes the pool manager
    {reply, {ok, Pid}, Workers#{Worker => Pid}}.

handle_cast(_Msg, State) ->
    {noreply, State}.

worker_loop() ->
    receive
        {work, From, Ref, Fun} -> From ! {Ref, Fun()}, worker_loop();
        stop -> ok
    end.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch checkout(pdf_worker)} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> element(1, R) end || P <- Pids],
    catch pdf_worker ! stop,
    stop(),
    Results.
