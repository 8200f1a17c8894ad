%% racewit prelude: an application master (see application.erl). It runs
%% the start callback, links to the top supervisor, and on
%% `application:stop/1` runs
%% `prep_stop/1`, shuts the tree down and runs `stop/1`. When the top
%% supervisor exits by itself, the application has stopped: the master
%% logs it as OTP's controller does and ends.
-module(racewit_app_master).
-export([init/5]).

init(App, _Type, M, Args, Caller) ->
    process_flag(trap_exit, true),
    set_master(App),
    case catch M:start(normal, Args) of
        {ok, Pid} when is_pid(Pid) ->
            link(Pid),
            Caller ! {self(), started, ok},
            loop(App, M, Pid, []);
        {ok, Pid, State} when is_pid(Pid) ->
            link(Pid),
            Caller ! {self(), started, ok},
            loop(App, M, Pid, State);
        {error, Reason} ->
            unset_master(),
            Caller ! {self(), started,
                      {error, {Reason, {M, start, [normal, Args]}}}};
        Other ->
            unset_master(),
            Caller ! {self(), started,
                      {error, {bad_return, {{M, start, [normal, Args]}, Other}}}}
    end.

set_master(App) ->
    Masters = racewit_world:get({application, masters}, #{}),
    racewit_world:put({application, masters}, Masters#{self() => App}).

unset_master() ->
    Masters = racewit_world:get({application, masters}, #{}),
    racewit_world:put({application, masters}, maps:remove(self(), Masters)).

loop(App, M, Top, State) ->
    receive
        {racewit_app_stop, From, Ref} ->
            State1 = case erlang:function_exported(M, prep_stop, 1) of
                         true -> catch M:prep_stop(State);
                         false -> State
                     end,
            exit(Top, shutdown),
            receive {'EXIT', Top, _} -> ok end,
            catch M:stop(State1),
            unset_master(),
            logger:notice(#{label => {application_controller, exit},
                            report => [{application, App}, {exited, stopped},
                                       {type, temporary}]}),
            From ! {Ref, stopped};
        {'EXIT', Top, Reason} ->
            catch M:stop(State),
            unset_master(),
            racewit_world:put({application, started},
                              lists:keydelete(App, 1,
                                              racewit_world:get({application, started}, []))),
            logger:notice(#{label => {application_controller, exit},
                            report => [{application, App}, {exited, Reason},
                                       {type, temporary}]});
        {'EXIT', _Other, _} ->
            loop(App, M, Top, State)
    end.
