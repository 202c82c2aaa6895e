"""English date and time formats with the 24-hour clock.

The tournaments run in Austria, Germany and Italy, where every printed time and
every schedule uses the 24-hour clock; Django's English default ("7:30 a.m.")
mixed with 24-hour times typed by the organiser ("– 23:30"). Dates keep Django's
English forms. German and Italian use Django's own formats (already 24-hour).
"""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "N j, Y, H:i"
SHORT_DATETIME_FORMAT = "m/d/Y H:i"
