%% A quota server: start_link/1 passes its options to init/1 in a list, and
%% init/1 reads them as a proplist and makes the public counter table.
%% charge/1 asks the server for the limit, then reads and bumps the user's
%% count itself: two charges at once lose one.  A harness must start the
%% server with options of the kind init/1 reads (a list), as the program
%% does; with a made-up integer, init/1 crashes and only noproc shows.
%% Expected: R002 confirmed, non_serializable, with the server started.
-module(plan_server).
-behaviour(gen_server).
-export([start_link/1, charge/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(TAB, plan_counts).

start_link(Opts) ->
    gen_server:start_link({local, ?MODULE}, ?MODULE, [Opts], []).

charge(User) ->
    Limit = gen_server:call(?MODULE, limit),
    case ets:lookup(?TAB, User) of
%%       ^^^^^^^^^^ R002 #1 #2 read: ets plan_counts/<User> (confirmed, non_serializable)
        [{User, N}] when N >= Limit ->
            {error, over_quota};
        [{User, N}] ->
            ets:insert(?TAB, {User, N + 1}),
%%          ^^^^^^^^^^ R002 #1 write: a later charge of the same count is lost
            ok;
        [] ->
            ets:insert(?TAB, {User, 1}),
%%          ^^^^^^^^^^ R002 #2 write: both first charges count 1
            ok
    end.

init([Opts]) ->
    Limit = proplists:get_value(limit, Opts, 100),
    ets:new(?TAB, [named_table, public, set]),
    {ok, Limit}.

handle_call(limit, _From, Limit) ->
    {reply, Limit, Limit}.

handle_cast(_, Limit) ->
    {noreply, Limit}.

default_options() ->
    [{limit, 5}].

test() ->
    {ok, Pid} = start_link(default_options()),
    ok = charge(alice),
    ok = charge(alice),
    [{alice, 2}] = ets:lookup(?TAB, alice),
    unlink(Pid),
    exit(Pid, kill),
    ok.
