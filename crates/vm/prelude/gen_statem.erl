%% racewit prelude: gen_statem basics (state_functions and
%% handle_event_function; reply actions; event and state timeouts as
%% schedulable `after`s; no postpone or state_enter).
-module(gen_statem).
-export([start/3, start/4, start_link/3, start_link/4, call/2, call/3, cast/2,
         reply/1, reply/2, stop/1, stop/3]).

start(Mod, Args, Opts) -> gen_server:start(gen_statem_shell(), {self, Mod, Args}, Opts).
start(Name, Mod, Args, Opts) -> do_start(nolink, Name, Mod, Args, Opts).
start_link(Mod, Args, Opts) -> do_start(link, self, Mod, Args, Opts).
start_link(Name, Mod, Args, Opts) -> do_start(link, Name, Mod, Args, Opts).

gen_statem_shell() -> racewit_statem.

do_start(nolink, self, Mod, Args, Opts) -> gen_server:start(racewit_statem, {self, Mod, Args}, Opts);
do_start(nolink, Name, Mod, Args, Opts) -> gen_server:start(Name, racewit_statem, {Name, Mod, Args}, Opts);
do_start(link, self, Mod, Args, Opts) -> gen_server:start_link(racewit_statem, {self, Mod, Args}, Opts);
do_start(link, Name, Mod, Args, Opts) -> gen_server:start_link(Name, racewit_statem, {Name, Mod, Args}, Opts).

call(Server, Request) -> call(Server, Request, infinity).
call(Server, Request, Timeout) ->
    try gen_server:call(Server, {'$racewit_statem_call', Request}, Timeout)
    catch exit:{Reason, {gen_server, call, _}} -> exit({Reason, {gen_statem, call, [Server, Request, Timeout]}})
    end.

cast(Server, Msg) -> gen_server:cast(Server, {'$racewit_statem_cast', Msg}).

reply({To, Tag}, Reply) -> To ! {Tag, Reply}, ok.
reply(Replies) when is_list(Replies) -> [reply(F, R) || {reply, F, R} <- Replies], ok.

stop(Server) -> gen_server:stop(Server).
stop(Server, Reason, Timeout) -> gen_server:stop(Server, Reason, Timeout).
