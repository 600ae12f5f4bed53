// Every device on the live map in its own colour, listed with that colour. (Issue 42: to be written.)
