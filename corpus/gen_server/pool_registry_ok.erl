%% The corrected pool manager: the whereis/1 check and the register/2 both
%% happen inside handle_call/3, so they run in the single server process and
%% concurrent checkouts are serialized by its mailbox.
%% Expected: R001 filtered (serialized in the one server: no interleaving breaks it).
-module(pool_registry_ok).
-behaviour(gen_server).
-export([start/0, stop/0, checkout/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    {ok, _} = gen_server:start({local, pool_registry_ok}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(pool_registry_ok).

checkout(Worker) when is_atom(Worker) ->
    gen_server:call(pool_registry_ok, {checkout, Worker}).

init([]) ->
    {ok, #{}}.

handle_call({checkout, Worker}, _From, Workers) ->
    case whereis(Worker) of
%%       ^^^^^^^ R001 #1 read: registry <Worker>, in the server only (filtered)
        undefined ->
            Pid = spawn(fun() -> worker_loop() end),
            register(Worker, Pid),
%%          ^^^^^^^^ R001 #1 write: serialized by the server
            {reply, {ok, Pid}, Workers#{Worker => Pid}};
        Pid ->
            {reply, {ok, Pid}, Workers}
    end.

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
    Pids = [spawn(fun() -> Self ! {self(), checkout(csv_worker)} end) || _ <- [1, 2]],
    [{ok, W}, {ok, W}] = [receive {P, R} -> R end || P <- Pids],
    W ! stop,
    stop(),
    ok.
