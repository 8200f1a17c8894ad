-module(zip_generators).
-export([pairs/2, mixed/3, shared/2, scoped/2, floats/0]).

%% OTP 28 zip generators (EEP 73) and based floats (EEP 75).
pairs(Xs, Ys) -> [{X, Y} || X <- Xs && Y <- Ys].
mixed(L, B, M) ->
    << <<(X + Y + V):8>> || X <:- L && <<Y:8>> <= B && _K := V <- M, X > 0 >>.
%% `Same` is bound by the first pattern and compared in the second.
shared(L1, L2) -> #{Same => {A, B} || {Same, A} <- L1 && {Same, B} <:- L2}.
%% The generators' expressions see the outer `X`, not the patterns' `X`.
scoped(X, L) -> [X || X <- X && _ <- L, X =/= []].
floats() -> {2#0.1, 16#1.8#e3, 36#z.z#e-1, 2#0.1#e-2}.
