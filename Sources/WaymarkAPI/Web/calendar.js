// The History view's calendar: a month of days, the days with data marked. (Issue 42: to be written.)
