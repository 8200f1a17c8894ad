# Stands for erlang.mk (the real one is downloaded by `make`): racewit
# only needs to know the project is built with it.
