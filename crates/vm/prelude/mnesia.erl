%% racewit prelude: mnesia transactions (one atomic step, except at dirty
%% operations inside; one lock, taken by the first transactional operation;
%% undone on abort; restarted when the lock is held).
-module(mnesia).
-export([transaction/1, transaction/2, transaction/3, abort/1, activity/2, activity/3,
         activity/4, sync_dirty/1, sync_dirty/2, async_dirty/1, async_dirty/2,
         ets/1, ets/2, sync_transaction/1, foldl/3, foldr/3]).

transaction(Fun) -> transaction(Fun, []).
transaction(Fun, Args) when is_list(Args) -> run_tx(Fun, Args);
transaction(Fun, _Retries) -> run_tx(Fun, []).
transaction(Fun, Args, _Retries) -> run_tx(Fun, Args).
sync_transaction(Fun) -> run_tx(Fun, []).

run_tx(Fun, Args) ->
    racewit:mnesia_begin(),
    try apply(Fun, Args) of
        Res -> racewit:mnesia_commit(), {atomic, Res}
    catch
        exit:'$racewit_mnesia_restart' ->
            %% Another transaction holds the lock: undo, wait, start again.
            racewit:mnesia_abort(),
            receive '$racewit_mnesia_free' -> ok end,
            run_tx(Fun, Args);
        exit:{aborted, Reason} -> racewit:mnesia_abort(), {aborted, Reason};
        throw:T -> racewit:mnesia_abort(), {aborted, {throw, T}};
        error:Reason:St -> racewit:mnesia_abort(), {aborted, {Reason, St}};
        exit:Reason -> racewit:mnesia_abort(), {aborted, Reason}
    end.

abort(Reason) -> exit({aborted, Reason}).

foldl(F, Acc, Tab) -> lists:foldl(F, Acc, racewit:mnesia_objects(Tab)).
foldr(F, Acc, Tab) -> lists:foldr(F, Acc, racewit:mnesia_objects(Tab)).

dirty(Fun, Args) ->
    Old = put('$racewit_mnesia_activity', true),
    try apply(Fun, Args)
    after
        case Old of
            undefined -> erase('$racewit_mnesia_activity');
            _ -> put('$racewit_mnesia_activity', Old)
        end
    end.

activity(Kind, Fun) -> activity(Kind, Fun, []).
activity(transaction, Fun, Args) ->
    case run_tx(Fun, Args) of
        {atomic, R} -> R;
        {aborted, R} -> exit({aborted, R})
    end;
activity({transaction, _}, Fun, Args) -> activity(transaction, Fun, Args);
activity(sync_transaction, Fun, Args) -> activity(transaction, Fun, Args);
activity(_Dirty, Fun, Args) -> dirty(Fun, Args).
activity(Kind, Fun, Args, _Mod) -> activity(Kind, Fun, Args).

sync_dirty(Fun) -> dirty(Fun, []).
sync_dirty(Fun, Args) -> dirty(Fun, Args).
async_dirty(Fun) -> dirty(Fun, []).
async_dirty(Fun, Args) -> dirty(Fun, Args).
ets(Fun) -> dirty(Fun, []).
ets(Fun, Args) -> dirty(Fun, Args).
