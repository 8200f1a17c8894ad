%% Sign-up that enforces unique user names with dirty_match_object/1 and then
%% writes the new user under a fresh unique id.  The keys differ, but the read
%% is a pattern over the whole table, so two sign-ups for one name both pass.
%% Expected: R003 confirmed, non_serializable, bound 1.
-module(user_signup).
-export([setup/0, signup/2, users_named/1, teardown/0, test/0]).

-record(user, {id, name, email}).

setup() ->
    ok = mnesia:start(),
    case mnesia:create_table(user, [{attributes, record_info(fields, user)}]) of
        {atomic, ok} -> ok;
        {aborted, {already_exists, user}} -> ok
    end,
    ok = mnesia:wait_for_tables([user], 5000).

teardown() ->
    mnesia:stop().

users_named(Name) ->
    mnesia:dirty_match_object(#user{id = '_', name = Name, email = '_'}).
%%  ^^^^^^^^^^^^^^^^^^^^^^^^^ R003 #1 read: mnesia user, pattern on name (confirmed, non_serializable)

signup(Name, Email) ->
    case users_named(Name) of
        [] ->
            Id = erlang:unique_integer([positive]),
            mnesia:dirty_write(#user{id = Id, name = Name, email = Email}),
%%          ^^^^^^^^^^^^^^^^^^ R003 #1 write: second user with the same name
            {ok, Id};
        [_ | _] ->
            {error, name_taken}
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), signup(<<"ada">>, E)} end)
            || E <- [<<"a@x.org">>, <<"b@y.org">>]],
    [receive {P, _} -> ok end || P <- Pids],
    N = length(users_named(<<"ada">>)),
    teardown(),
    N.
