"""English date and time formats: one date style (day, month's name, year) and the 24-hour clock.

The tournaments run in Austria, Germany and Italy, where every printed time and
every schedule uses the 24-hour clock; Django's English default ("7:30 a.m.")
mixed with 24-hour times typed by the organiser ("– 23:30"). Django's English dates
mixed "Nov. 26, 2026" with "11/26/2026 08:00" (issue 28): every date here is written
one way, "26 November 2026", with the time after it. German and Italian use Django's
own formats (already 24-hour; the Italian month names are written lowercase by the
catalogue: "27 novembre 2026").
"""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
