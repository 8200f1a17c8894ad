%% A server started under a constant name starts its helper from init/1.
%% start_helper/0 is exported, but only init/1 calls it: the whereis/1 and
%% the register/2 run once per start of the one server (a second start fails
%% with already_started before its init/1 runs), and nothing else registers
%% the helper's name.  Expected: filtered.
-module(started_in_init_ok).
-behaviour(gen_server).
-export([start/0, stop/0, start_helper/0, ping/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(HELPER, started_in_init_helper).

start() ->
    gen_server:start({local, ?MODULE}, ?MODULE, [], []).

stop() ->
    gen_server:stop(?MODULE),
    ?HELPER ! stop,
    ok.

init([]) ->
    ok = start_helper(),
    {ok, #{}}.

start_helper() ->
    case whereis(?HELPER) of
%%       ^^^^^^^ R001 #1 read (filtered): runs once per start of the named server
        undefined ->
            Pid = spawn(fun helper_loop/0),
            true = register(?HELPER, Pid),
%%                 ^^^^^^^^ R001 #1 write (filtered): only init/1 reaches it
            ok;
        _ ->
            ok
    end.

helper_loop() ->
    receive
        {ping, From} -> From ! pong, helper_loop();
        stop -> ok
    end.

ping() ->
    ?HELPER ! {ping, self()},
    receive pong -> pong after 1000 -> timeout end.

handle_call(_Request, _From, State) ->
    {reply, ok, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

test() ->
    {ok, _} = start(),
    pong = ping(),
    {error, {already_started, _}} = start(),
    pong = ping(),
    stop().
