%% The configuration cache of conf_cache_ok, but refresh/1 lets a client
%% store a new limit itself (it passes true too): a refresh and the
%% server's handle_call/3 both read generation N and both store N + 1.
%% Expected: R006 reported (a caller passing true runs in any process).
-module(conf_cache).
-behaviour(gen_server).
-export([start/0, stop/0, current/0, set_limit/1, refresh/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    {ok, _} = gen_server:start({local, ?MODULE}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?MODULE).

current() ->
    conf(false, 10).

set_limit(Limit) ->
    gen_server:call(?MODULE, {limit, Limit}).

refresh(Limit) ->
    conf(true, Limit).

conf(Server, Limit) ->
    case persistent_term:get(?MODULE, #{limit => none, gen => 0}) of
%%       ^^^^^^^^^^^^^^^^^^ R006 #1 read: key conf_cache
        #{gen := Gen} ->
            Conf = #{limit => Limit, gen => Gen + 1},
            if Server == true -> persistent_term:put(?MODULE, Conf);
%%                               ^^^^^^^^^^^^^^^^^^ R006 #1 write: refresh/1 passes true from any process
               true -> ok
            end,
            Conf
    end.

init([]) ->
    conf(true, 10),
    {ok, #{}}.

handle_call({limit, Limit}, _From, S) ->
    {reply, conf(true, Limit), S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> F(), Self ! {done, self()} end)
            || F <- [fun() -> set_limit(20) end, fun() -> refresh(30) end]],
    [receive {done, P} -> ok end || P <- Pids],
    #{gen := Gen} = current(),
    stop(),
    Gen.
