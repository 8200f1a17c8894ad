%% Checks: a behaviour of its own built on gen (as gen_leader is): gen:start/5,6 with and without a name, link and nolink, the timeout option, already_started, gen:call/3,4 to a pid and a name, gen:reply/2 from a helper, a call to a dead process, the init_it/6 protocol with proc_lib:init_ack/2.
-module(gen_custom_behaviour).
-export([main/0, init_it/6]).

init_it(Starter, Parent, Name, Mod, Args, _Options) ->
    case Args of
        {fail, R} -> proc_lib:init_ack(Starter, {error, R});
        _ ->
            proc_lib:init_ack(Starter, {ok, self()}),
            loop(Parent, Name, Mod, Args)
    end.

loop(Parent, Name, Mod, State) ->
    receive
        {'$gen_call', From, get} ->
            gen:reply(From, {State, is_pid(Name) orelse Name, Mod, Parent =:= self()}),
            loop(Parent, Name, Mod, State);
        {'$gen_call', From, {later, V}} ->
            spawn(fun() -> gen:reply(From, {later, V}) end),
            loop(Parent, Name, Mod, V);
        {'$gen_call', _From, ignore} ->
            loop(Parent, Name, Mod, State);
        {'$gen_call', From, stop} ->
            gen:reply(From, stopping)
    end.

main() ->
    {ok, P} = gen:start(?MODULE, link, {local, gcb_server}, some_mod, 1, []),
    io:format("registered: ~p~n", [whereis(gcb_server) =:= P]),
    io:format("call name: ~p~n", [gen:call(gcb_server, '$gen_call', get)]),
    io:format("call pid: ~p~n", [gen:call(P, '$gen_call', {later, 2})]),
    io:format("call infinity: ~p~n", [gen:call(gcb_server, '$gen_call', get, infinity)]),
    io:format("again: ~p~n", [gen:start(?MODULE, link, {local, gcb_server}, some_mod, 1, []) =:= {error, {already_started, P}}]),
    io:format("timeout: ~p~n", [catch gen:call(P, '$gen_call', ignore, 20)]),
    io:format("still there: ~p~n", [gen:call(P, '$gen_call', get, 1000)]),
    io:format("stop: ~p~n", [gen:call(P, '$gen_call', stop)]),
    io:format("dead pid: ~p~n", [catch gen:call(P, '$gen_call', get, 100)]),
    io:format("dead name: ~p~n", [catch gen:call(gcb_server, '$gen_call', get)]),
    {ok, Q} = gen:start(?MODULE, nolink, other_mod, 3, [{timeout, 1000}]),
    io:format("unnamed: ~p ~p~n", [gen:call(Q, '$gen_call', get), lists:member(Q, element(2, process_info(self(), links)))]),
    io:format("failed: ~p~n", [gen:start(?MODULE, nolink, {local, gcb_two}, m, {fail, why}, [])]),
    io:format("monitor start: ~p~n", [case gen:start(?MODULE, monitor, m, 4, []) of
                                          {ok, {Pid, Ref}} -> {is_pid(Pid), is_reference(Ref)};
                                          Other -> Other
                                      end]),
    done.
