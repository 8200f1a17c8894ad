%% Named connection holders started on demand: ensure/1 checks the registry
%% and starts a gen_server whose init/1 registers the name.  The write is in
%% the started process (init/1); a second concurrent ensure/1 gets an init
%% failure and its {ok, Pid} match crashes.
%% Expected: R001 confirmed, crash, bound 1.
-module(init_register).
-behaviour(gen_server).
-export([ensure/1, send/2, stop/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

ensure(Name) when is_atom(Name) ->
    case whereis(Name) of
%%       ^^^^^^^ R001 #1 read: registry <Name> (confirmed, crash)
        undefined ->
            {ok, Pid} = gen_server:start(?MODULE, Name, []),
            Pid;
        Pid ->
            Pid
    end.

send(Name, Payload) ->
    gen_server:call(ensure(Name), {send, Payload}).

stop(Name) ->
    case whereis(Name) of
        undefined -> ok;
        Pid -> gen_server:stop(Pid)
    end.

init(Name) ->
    true = register(Name, self()),
%%         ^^^^^^^^ R001 #1 write: in init/1 of the started server; badarg fails the start
    {ok, #{name => Name, sent => 0}}.

handle_call({send, _Payload}, _From, #{sent := N} = State) ->
    {reply, {ok, N + 1}, State#{sent := N + 1}}.

handle_cast(_Msg, State) ->
    {noreply, State}.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch send(smtp_conn, <<"hi">>)} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> element(1, R) end || P <- Pids],
    stop(smtp_conn),
    Results.
