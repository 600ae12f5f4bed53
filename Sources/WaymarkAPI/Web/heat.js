// A heat map of a history range's fixes, drawn on canvas tiles. (Issue 42: to be written.)
