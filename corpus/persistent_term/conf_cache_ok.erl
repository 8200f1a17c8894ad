%% A configuration cached in a persistent term, each store bumping its
%% generation. conf/2 stores only when its flag says the caller is the
%% configuration server (its init/1 and handle_call/3 pass true; clients
%% pass false and only compute), so only that server reads and stores.
%% Expected: R006 filtered (the put runs only in the one registered server).
-module(conf_cache_ok).
-behaviour(gen_server).
-export([start/0, stop/0, current/0, set_limit/1, test/0]).
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

conf(Server, Limit) ->
    case persistent_term:get(?MODULE, #{limit => none, gen => 0}) of
%%       ^^^^^^^^^^^^^^^^^^ R006 #1 read: key conf_cache_ok (filtered)
        #{gen := Gen} ->
            Conf = #{limit => Limit, gen => Gen + 1},
            if Server == true -> persistent_term:put(?MODULE, Conf);
%%                               ^^^^^^^^^^^^^^^^^^ R006 #1 write: only when Server is true, i.e. in the server
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
    Pids = [spawn(fun() -> set_limit(L), current(), Self ! {done, self()} end)
            || L <- [20, 30]],
    [receive {done, P} -> ok end || P <- Pids],
    #{gen := Gen} = current(),
    stop(),
    Gen.
