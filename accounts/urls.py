from django.urls import path

from . import reset, views

urlpatterns = [
    path("register/", views.register, name="register"),
    path("login/", views.sign_in, name="login"),
    path("logout/", views.sign_out, name="logout"),
    path("password/", views.password_change, name="password-change"),
    path("password/reset/", reset.ResetRequestView.as_view(), name="password-reset"),
    path("password/reset/sent/", reset.ResetSentView.as_view(), name="password-reset-sent"),
    path("password/reset/<uidb64>/<token>/", reset.ResetConfirmView.as_view(), name="password_reset_confirm"),
    path("password/reset/done/", reset.ResetDoneView.as_view(), name="password-reset-done"),
    path("email/", views.email_page, name="email"),
    path("email/verify/<str:token>/", views.email_verify, name="email-verify"),
]
